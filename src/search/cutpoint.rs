//! Data-flow directed search: one target def-use pair at a time, pending branches ranked
//! either by cut points (the paper's Algorithm 2: the branch that got furthest along the pair's
//! cut points, then the one closest to the next cut point) or by shortest distance (to the
//! definition until it is passed, then to the use). Each pair gets a bounded number of tries
//! before the next uncovered one becomes the target, round robin.
//!
//! Cut points (Algorithm 1): the blocks every path covering the pair must pass, in order — the
//! call sites leading from the entry function to the definition's function (through the
//! callers closest to the entry), the dominators of the definition's block, the definition,
//! then likewise for the use. Whether a pending branch passed a cut point is judged statically:
//! a cut point in the branch's function that dominates the branch was passed.
//!
//! Redefinition pruning (the paper's Algorithm 2, lines 17-18): a pending branch whose run
//! executed the target pair's definition and then redefined its variable (directly or through
//! an alias), so that the definition no longer reaches the branch, cannot lead to a def-clear
//! path unless it executes the definition again. The paper discards such states; here they go
//! to the back of the queue instead (ranked after every other branch), so they stay available
//! for other target pairs and for loops that re-execute the definition, and no exploration a
//! proof relies on is lost.

use super::tree::Pending;
use super::{Ctx, PendingId, PendingPool, Strategy};
use crate::analysis::cfg::{Distances, Icfg};
use crate::analysis::defuse::{DefSite, DefUse, PairId};
use crate::analysis::dominators::Dominators;
use crate::exec::defuse::{DefState, DefUseRun};
use crate::ir::{BlockId, Callee, FuncId, Inst, Module};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

/// Tries a target pair gets before the next one.
const TRIES_PER_PAIR: usize = 16;

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Ranking {
    CutPoints,
    ShortestDistance,
}

pub struct DataFlowSearch {
    ranking: Ranking,
    /// Redefinition pruning (cut-point ranking only).
    prune: bool,
    /// Every pending branch added, in order (taken ones stay: the pool tells them apart).
    added: Vec<PendingId>,
    /// The same, for taking the latest when no pair is targeted.
    latest: Vec<PendingId>,
    /// Per target pair: its pending branches ranked best first, and how many of `added` were
    /// ranked. A rank depends only on the branch and the target, so each is computed once per
    /// target, not for every branch at every selection (which cost most of the search's time
    /// on fast programs: the target changes every few selections).
    ranked: HashMap<PairId, PairRanking>,
    state: Option<State>,
    target: Option<PairId>,
    tries: usize,
}

/// Ranked entries kept over all target pairs before the rankings start afresh.
const MAX_RANKED: usize = 2_000_000;

/// A pending branch's rank for the target pair, smallest first: not pruned, most cut points
/// passed, nearest to the next one, shallowest.
type Key = (bool, i64, u32, usize);

/// A target pair's pending branches ranked best first, and how many of `added` were ranked.
type PairRanking = (BinaryHeap<Reverse<(Key, PendingId)>>, usize);

struct State {
    module: Arc<Module>,
    du: Arc<DefUse>,
    /// Goal id of pair 0.
    base: usize,
    icfg: Icfg,
    doms: HashMap<FuncId, Dominators>,
    dist: HashMap<(FuncId, BlockId), Distances>,
    cuts: HashMap<PairId, Cuts>,
}

/// A pair's cut points and where its definition and use are among them.
struct Cuts {
    points: Vec<(FuncId, BlockId)>,
    def: usize,
    use_: usize,
}

impl DataFlowSearch {
    pub fn new(ranking: Ranking) -> Self {
        DataFlowSearch {
            ranking,
            prune: ranking == Ranking::CutPoints,
            added: vec![],
            latest: vec![],
            ranked: HashMap::new(),
            state: None,
            target: None,
            tries: 0,
        }
    }

    /// Without redefinition pruning (for comparison).
    pub fn unpruned(mut self) -> Self {
        self.prune = false;
        self
    }
}

/// Whether `p`'s run executed definition `def` and then redefined its variable before the
/// branch, so that `def` does not reach it (the redefinition pruning rule).
pub fn redefined_before(p: &Pending, def: crate::analysis::defuse::DefId) -> bool {
    let step = p.run.records[p.depth].step;
    let run = p.run.observed.get::<DefUseRun>();
    run.and_then(|d| d.state_at(def, step)) == Some(DefState::Redefined)
}

/// Call sites (caller, block) leading from `entry` to `to`, by fewest calls.
fn call_chain(m: &Module, entry: FuncId, to: FuncId) -> Vec<(FuncId, BlockId)> {
    let mut prev: HashMap<FuncId, (FuncId, BlockId)> = HashMap::new();
    let mut q = VecDeque::from([entry]);
    let mut seen = vec![false; m.functions.len()];
    seen[entry as usize] = true;
    while let Some(f) = q.pop_front() {
        if f == to {
            break;
        }
        for (bi, b) in m.functions[f as usize].blocks.iter().enumerate() {
            for i in &b.insts {
                if let Inst::Call {
                    callee: Callee::Func(t),
                    ..
                } = i
                    && !seen[*t as usize]
                {
                    seen[*t as usize] = true;
                    prev.insert(*t, (f, bi as BlockId));
                    q.push_back(*t);
                }
            }
        }
    }
    let mut chain = vec![];
    let mut f = to;
    while let Some(&(caller, b)) = prev.get(&f) {
        chain.push((caller, b));
        f = caller;
    }
    chain.reverse();
    chain
}

impl State {
    fn doms(&mut self, f: FuncId) -> &Dominators {
        let m = &self.module;
        self.doms
            .entry(f)
            .or_insert_with(|| Dominators::of(&m.functions[f as usize]))
    }

    /// Cut points to (f, b): call sites from the entry, then the dominators of b in f.
    fn route(&mut self, f: FuncId, b: BlockId, into: &mut Vec<(FuncId, BlockId)>) {
        let entry = self.du.entry.unwrap_or(f);
        for (cf, cb) in call_chain(&self.module, entry, f) {
            for x in self.doms(cf).chain(cb) {
                if !into.contains(&(cf, x)) {
                    into.push((cf, x));
                }
            }
        }
        for x in self.doms(f).chain(b) {
            if !into.contains(&(f, x)) {
                into.push((f, x));
            }
        }
    }

    fn cuts(&mut self, p: PairId) -> &Cuts {
        if !self.cuts.contains_key(&p) {
            let pair = self.du.pairs[p as usize].clone();
            let (uf, ub, _) = self.du.uses[pair.use_ as usize].at;
            let mut points = vec![];
            let def = match self.du.defs[pair.def as usize].site {
                DefSite::At((df, db, _)) => {
                    self.route(df, db, &mut points);
                    points.len() - 1
                }
                DefSite::Entry => 0,
            };
            self.route(uf, ub, &mut points);
            let use_ = points.len() - 1;
            self.cuts.insert(p, Cuts { points, def, use_ });
        }
        &self.cuts[&p]
    }

    fn distance(&mut self, from: (FuncId, BlockId), to: (FuncId, BlockId)) -> u32 {
        let icfg = &self.icfg;
        self.dist
            .entry(to)
            .or_insert_with(|| Distances::to_blocks(icfg, [icfg.index(to.0, to.1)]))
            .of(from.0, from.1)
    }

    /// How far along the pair's cut points the branch got (index of the last one passed).
    fn passed(&mut self, p: PairId, site: (FuncId, BlockId)) -> Option<usize> {
        let points = self.cuts(p).points.clone();
        let doms = self.doms(site.0);
        points
            .iter()
            .rposition(|&(f, b)| f == site.0 && doms.dominates(b, site.1))
    }
}

impl Strategy for DataFlowSearch {
    fn name(&self) -> &'static str {
        match self.ranking {
            Ranking::CutPoints if !self.prune => "cut-point-unpruned",
            Ranking::CutPoints => "cut-point",
            Ranking::ShortestDistance => "shortest-distance",
        }
    }

    fn prepare(&mut self, program: &crate::exec::Program) {
        let Some(du) = &program.def_use else {
            return;
        };
        let base = crate::analysis::goals::Goals::of(&program.module).len();
        self.state = Some(State {
            module: Arc::new(program.module.clone()),
            du: du.clone(),
            base,
            icfg: Icfg::new(&program.module),
            doms: HashMap::new(),
            dist: HashMap::new(),
            cuts: HashMap::new(),
        });
    }

    fn add(&mut self, id: PendingId, _: &Pending, _: &mut Ctx) {
        self.added.push(id);
        self.latest.push(id);
    }

    fn select(&mut self, pool: &PendingPool, ctx: &mut Ctx) -> Option<PendingId> {
        let Some(st) = &mut self.state else {
            return pop_live(&mut self.latest, pool);
        };
        // The target: the current pair while it is undecided and has tries left, else the
        // next undecided one.
        let n = st.du.pairs.len();
        let open = |p: usize| !ctx.covered.get(st.base + p).copied().unwrap_or(true);
        let keep = self
            .target
            .is_some_and(|t| open(t as usize) && self.tries < TRIES_PER_PAIR);
        if !keep {
            let start = self.target.map_or(0, |t| t as usize + 1);
            self.target = (0..n)
                .map(|k| (start + k) % n)
                .find(|&p| open(p))
                .map(|p| p as PairId);
            self.tries = 0;
        }
        let Some(t) = self.target else {
            return pop_live(&mut self.latest, pool);
        };
        self.tries += 1;
        // Rankings of pairs no longer open are dropped, and all of them past MAX_RANKED
        // entries (about 80 MB; taken branches leave a ranking only when popped).
        self.ranked.retain(|p, _| open(*p as usize));
        let held: usize = self.ranked.values().map(|(h, _)| h.len()).sum();
        if held > MAX_RANKED {
            self.ranked.clear();
            self.added.retain(|id| pool.get(*id).is_some());
        }
        let (def, use_, points) = {
            let c = st.cuts(t);
            (c.def, c.use_, c.points.clone())
        };
        let target_def = st.du.pairs[t as usize].def;
        let (ranked, seen) = self.ranked.entry(t).or_default();
        for &id in &self.added[*seen..] {
            let Some(p) = pool.get(id) else {
                continue;
            };
            let rec = &p.run.records[p.depth];
            let site = (rec.func, rec.block);
            let passed = st.passed(t, site);
            let key = match self.ranking {
                Ranking::CutPoints => {
                    let pruned = self.prune && redefined_before(p, target_def);
                    let next = passed.map_or(0, |k| (k + 1).min(points.len() - 1));
                    let d = st.distance(p.target, points[next]);
                    (pruned, -(passed.map_or(-1, |k| k as i64)), d, p.depth)
                }
                Ranking::ShortestDistance => {
                    let aim = if passed.is_some_and(|k| k >= def) {
                        use_
                    } else {
                        def
                    };
                    (false, 0, st.distance(p.target, points[aim]), p.depth)
                }
            };
            ranked.push(Reverse((key, id)));
        }
        *seen = self.added.len();
        while let Some(Reverse((_, id))) = ranked.pop() {
            if pool.get(id).is_some() {
                return Some(id);
            }
        }
        None
    }
}

/// The latest pending branch still in the pool.
fn pop_live(ids: &mut Vec<PendingId>, pool: &PendingPool) -> Option<PendingId> {
    while let Some(id) = ids.pop() {
        if pool.get(id).is_some() {
            return Some(id);
        }
    }
    None
}
