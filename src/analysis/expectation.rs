//! Branch weights approximating the expectation of uncovered branches a test reaches
//! (Dong, Yan, Zhang, Zeng: "A search strategy guided by uncovered branches for concolic
//! testing", `papers/uncovered-branch-expectation.txt`).
//!
//! The graph is an ICFG in which every function is copied per call site (a tree of call-string
//! *contexts* rooted at the entry), so a branch of a function called twice is two nodes whose
//! weights differ with what follows each call. A node is one outcome of one branch copy; its
//! immediate subsequent branches (ISBs) are the outcomes of the first branches reachable from its
//! target without passing another branch, entering callees and returning to the right caller.
//! Each node maps back to its real goal, so coverage is counted on real branches.
//!
//! Weights (W_avg = mean weight of the ISBs):
//! 1. no ISB: 1 if uncovered, else 0;
//! 2. uncovered with ISBs: W_avg + 1;
//! 3. covered with ISBs: alpha * W_avg if all ISBs weigh the same, else W_avg.
//!
//! Limits:
//! - Recursion: a function already on a context's call string is not expanded again; the walk
//!   steps over that call as if it returned at once (its branches are counted in the ancestor's
//!   copy already).
//! - Indirect calls are not expanded either (targets unknown statically).
//! - At most `MAX_COPIES` nodes (and contexts). When the cap is hit the expansion (breadth-first,
//!   so shallow call sites come first) stops creating contexts: further calls are stepped over
//!   like recursive ones, `truncated` is set, and decisions made inside the missing copies get
//!   the largest weight among the copies that exist (`Target::Branch`).
//! - A check the shadow records inside a block (a pointer in bounds, a divisor not 0) gets a node
//!   per context for its passing outcome, whose ISBs are the first branches from the block's
//!   start (calls earlier in the block included: the check's instruction is not recorded). Its
//!   failing outcome ends the run and weighs nothing.
//! - Calls to `exit`, `abort` etc. end a path because clang puts `unreachable` after noreturn
//!   calls (and the runtime's `exit` never returns); no list of such functions is needed.

use crate::ir::{BlockId, Callee, FuncId, GoalId, Inst, Module, NO_GOAL, Terminator};
use std::collections::{HashMap, HashSet};

/// The paper's alpha (< 1): a covered branch whose ISBs all weigh the same is discounted, so
/// among branches of equal expectation the one closer to uncovered branches weighs more.
pub const ALPHA: f64 = 0.75;

/// Cap on branch-outcome copies (and contexts), so large programs stay fast.
pub const MAX_COPIES: usize = 200_000;

/// Context id of the first frame of a run.
pub const ROOT_CONTEXT: u64 = 0;

const NONE: u32 = u32::MAX;

/// Context id of a frame called at `site` from a frame with context `parent`. The interpreter
/// (`Machine::context`) and the analysis compute the same ids, which identify call strings
/// (collisions are 2^-64 events).
pub fn call_context(parent: u64, site: u32) -> u64 {
    // splitmix64 finaliser.
    let mut z = parent.rotate_left(17) ^ (site as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The function where a run's first frame starts: `main` runs through the runtime's
/// `__cairn_start` (as in `Machine::run_main`).
pub fn start_function(m: &Module, entry: &str) -> Option<FuncId> {
    if let (true, Some(&f)) = (entry == "main", m.func_by_name.get("__cairn_start")) {
        return Some(f);
    }
    m.func_by_name.get(entry).copied()
}

/// Branch outcomes of one function, numbered densely.
struct FuncBranches {
    /// Per block: index of its first outcome, or NONE if it does not end in a branch.
    first: Vec<u32>,
    /// Per block: number of outcomes.
    count: Vec<u32>,
    /// Per outcome: target block and goal.
    targets: Vec<BlockId>,
    goals: Vec<GoalId>,
}

fn outcomes(t: &Terminator) -> Option<Vec<(BlockId, GoalId)>> {
    match t {
        Terminator::CondBr {
            then_edge,
            else_edge,
            then_goal,
            else_goal,
            ..
        } => Some(vec![
            (then_edge.target, *then_goal),
            (else_edge.target, *else_goal),
        ]),
        // Same order as the shadow records switch outcomes: cases, then default.
        Terminator::Switch {
            cases,
            default,
            default_goal,
            ..
        } => Some(
            cases
                .iter()
                .map(|c| (c.1.target, c.2))
                .chain([(default.target, *default_goal)])
                .collect(),
        ),
        _ => None,
    }
}

struct Context {
    func: FuncId,
    parent: u32,
    /// Where the call is in the parent: block and instruction index.
    call: (BlockId, u32),
    /// `call_context` id, as the interpreter computes it.
    hash: u64,
    node_base: u32,
}

/// What a pending branch is in the graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// Its own copy.
    Copy(u32),
    /// A decision in a context the graph has no copy for (indirect call, cap, callback): the
    /// real branch outcome (function, block, outcome).
    Branch(FuncId, BlockId, u32),
    /// Not a branch of the program (a pointer or division check: its alternative is a crash).
    Other,
}

pub struct ExpectationGraph {
    pub alpha: f64,
    fb: Vec<FuncBranches>,
    ctxs: Vec<Context>,
    by_hash: HashMap<u64, u32>,
    /// Per node: the goal of its real branch outcome.
    goal: Vec<GoalId>,
    /// Per node: its ISB nodes (compressed rows).
    isb_start: Vec<u32>,
    isb: Vec<u32>,
    /// Per real branch block: node bases of its copies.
    copies: HashMap<(FuncId, BlockId), Vec<u32>>,
    /// Per (context, block) that can hold a check: the node of the check's passing outcome.
    checks: HashMap<(u32, BlockId), u32>,
    /// Per node: current weight (`update`).
    pub weights: Vec<f64>,
    /// The copy cap was hit (see the module comment).
    pub truncated: bool,
}

impl ExpectationGraph {
    pub fn new(m: &Module, entry: &str, alpha: f64) -> ExpectationGraph {
        Self::with_cap(m, entry, alpha, MAX_COPIES)
    }

    pub fn with_cap(m: &Module, entry: &str, alpha: f64, cap: usize) -> ExpectationGraph {
        let fb: Vec<FuncBranches> = m
            .functions
            .iter()
            .map(|f| {
                let mut b = FuncBranches {
                    first: vec![NONE; f.blocks.len()],
                    count: vec![0; f.blocks.len()],
                    targets: vec![],
                    goals: vec![],
                };
                for (i, blk) in f.blocks.iter().enumerate() {
                    if let Some(os) = outcomes(&blk.term) {
                        b.first[i] = b.targets.len() as u32;
                        b.count[i] = os.len() as u32;
                        for (t, g) in os {
                            b.targets.push(t);
                            b.goals.push(g);
                        }
                    }
                }
                b
            })
            .collect();
        let mut g = ExpectationGraph {
            alpha,
            fb,
            ctxs: vec![],
            by_hash: HashMap::new(),
            goal: vec![],
            isb_start: vec![0],
            isb: vec![],
            copies: HashMap::new(),
            checks: HashMap::new(),
            weights: vec![],
            truncated: false,
        };
        let Some(root) = start_function(m, entry) else {
            return g;
        };
        if m.functions[root as usize].blocks.is_empty() {
            return g;
        }

        // Contexts, breadth-first. `children` maps a call instruction of a context to the
        // callee's context; hashes follow `call_context`.
        let mut children: HashMap<(u32, BlockId, u32), u32> = HashMap::new();
        let mut nodes = 0usize;
        g.add_context(root, NONE, (0, 0), ROOT_CONTEXT, &mut nodes);
        let mut next = 0usize;
        while next < g.ctxs.len() {
            let c = next as u32;
            next += 1;
            let f = &m.functions[g.ctxs[c as usize].func as usize];
            for (bi, b) in f.blocks.iter().enumerate() {
                for (k, inst) in b.insts.iter().enumerate() {
                    let Inst::Call {
                        callee: Callee::Func(t),
                        site,
                        ..
                    } = inst
                    else {
                        continue;
                    };
                    if m.functions[*t as usize].blocks.is_empty() || g.on_call_string(c, *t) {
                        continue;
                    }
                    if nodes + g.fb[*t as usize].targets.len() > cap || g.ctxs.len() >= cap {
                        g.truncated = true;
                        continue;
                    }
                    let h = call_context(g.ctxs[c as usize].hash, *site);
                    let cc = g.add_context(*t, c, (bi as BlockId, k as u32), h, &mut nodes);
                    children.insert((c, bi as BlockId, k as u32), cc);
                }
            }
        }

        // Nodes and their ISBs.
        g.goal.reserve(nodes);
        let mut seen = HashSet::new();
        let mut sites = vec![];
        for c in 0..g.ctxs.len() as u32 {
            let func = g.ctxs[c as usize].func;
            let f = &m.functions[func as usize];
            let mut blocks: Vec<BlockId> = vec![];
            for (bi, blk) in f.blocks.iter().enumerate() {
                if outcomes(&blk.term).is_some() {
                    blocks.push(bi as BlockId);
                    g.copies
                        .entry((func, bi as BlockId))
                        .or_default()
                        .push(g.ctxs[c as usize].node_base + g.fb[func as usize].first[bi]);
                }
            }
            for bi in blocks {
                let (first, count) = (
                    g.fb[func as usize].first[bi as usize],
                    g.fb[func as usize].count[bi as usize],
                );
                for o in first..first + count {
                    g.goal.push(g.fb[func as usize].goals[o as usize]);
                    let target = g.fb[func as usize].targets[o as usize];
                    g.first_branches(m, &children, (c, target, 0), &mut seen, &mut sites);
                    for &(sc, sb) in &sites {
                        let fbr = &g.fb[g.ctxs[sc as usize].func as usize];
                        let base = g.ctxs[sc as usize].node_base + fbr.first[sb as usize];
                        g.isb.extend(base..base + fbr.count[sb as usize]);
                    }
                    g.isb_start.push(g.isb.len() as u32);
                }
            }
        }
        debug_assert_eq!(g.goal.len(), nodes);

        // A check (pointer in bounds, divisor not 0) recorded in a block: its passing outcome
        // goes on through the block, so its ISBs are the block's first branches. It is no goal
        // itself (rule 3 as a covered branch); without it, a table read past its end by a
        // random index weighs nothing and the flip that brings the index back waits for a
        // random pick while everything behind it stays uncovered.
        for c in 0..g.ctxs.len() as u32 {
            let f = &m.functions[g.ctxs[c as usize].func as usize];
            for (bi, blk) in f.blocks.iter().enumerate() {
                if g.goal.len() >= 2 * cap || !blk.insts.iter().any(|i| may_check(m, i)) {
                    continue;
                }
                g.first_branches(m, &children, (c, bi as BlockId, 0), &mut seen, &mut sites);
                for &(sc, sb) in &sites {
                    let fbr = &g.fb[g.ctxs[sc as usize].func as usize];
                    let base = g.ctxs[sc as usize].node_base + fbr.first[sb as usize];
                    g.isb.extend(base..base + fbr.count[sb as usize]);
                }
                g.isb_start.push(g.isb.len() as u32);
                g.checks.insert((c, bi as BlockId), g.goal.len() as u32);
                g.goal.push(NO_GOAL);
            }
        }
        g.weights = vec![0.0; g.goal.len()];
        g
    }

    fn add_context(
        &mut self,
        func: FuncId,
        parent: u32,
        call: (BlockId, u32),
        hash: u64,
        nodes: &mut usize,
    ) -> u32 {
        let id = self.ctxs.len() as u32;
        self.ctxs.push(Context {
            func,
            parent,
            call,
            hash,
            node_base: *nodes as u32,
        });
        self.by_hash.insert(hash, id);
        *nodes += self.fb[func as usize].targets.len();
        id
    }

    fn on_call_string(&self, mut c: u32, f: FuncId) -> bool {
        while c != NONE {
            if self.ctxs[c as usize].func == f {
                return true;
            }
            c = self.ctxs[c as usize].parent;
        }
        false
    }

    /// The first branch blocks (context, block) reached from `start` (context, block, instruction)
    /// without passing another branch.
    fn first_branches(
        &self,
        m: &Module,
        children: &HashMap<(u32, BlockId, u32), u32>,
        start: (u32, BlockId, u32),
        seen: &mut HashSet<(u32, BlockId, u32)>,
        out: &mut Vec<(u32, BlockId)>,
    ) {
        seen.clear();
        out.clear();
        let mut work = vec![start];
        seen.insert(start);
        let mut push = |s: (u32, BlockId, u32), work: &mut Vec<_>| {
            if seen.insert(s) {
                work.push(s);
            }
        };
        'states: while let Some((c, b, i)) = work.pop() {
            let ctx = &self.ctxs[c as usize];
            let blk = &m.functions[ctx.func as usize].blocks[b as usize];
            for k in i as usize..blk.insts.len() {
                if let Some(&cc) = children.get(&(c, b, k as u32)) {
                    // The rest of this block runs when the callee returns (its Ret blocks).
                    push((cc, 0, 0), &mut work);
                    continue 'states;
                }
            }
            match &blk.term {
                Terminator::CondBr { .. } | Terminator::Switch { .. } => out.push((c, b)),
                Terminator::Br { edge } => push((c, edge.target, 0), &mut work),
                Terminator::Ret { .. } if ctx.parent != NONE => {
                    push((ctx.parent, ctx.call.0, ctx.call.1 + 1), &mut work)
                }
                Terminator::Ret { .. } | Terminator::Unreachable => {}
            }
        }
        out.sort_unstable();
        out.dedup();
    }

    pub fn num_nodes(&self) -> usize {
        self.goal.len()
    }

    pub fn num_contexts(&self) -> usize {
        self.ctxs.len()
    }

    /// Copy of the branch outcome a decision took or could take: the decision was recorded at
    /// (`ctx`, `func`, `block`) and its outcome `o` leads to `target`.
    pub fn locate(
        &self,
        ctx: u64,
        func: FuncId,
        block: BlockId,
        o: usize,
        target: BlockId,
    ) -> Target {
        let Some(fb) = self.fb.get(func as usize) else {
            return Target::Other;
        };
        let first = fb.first.get(block as usize).copied().unwrap_or(NONE);
        // Checks are recorded at their block with the block itself as target; outcome 0 passes.
        if first == NONE
            || o as u32 >= fb.count[block as usize]
            || fb.targets[(first + o as u32) as usize] != target
        {
            let check = self
                .by_hash
                .get(&ctx)
                .filter(|&&c| self.ctxs[c as usize].func == func);
            return match check.and_then(|&c| self.checks.get(&(c, block))) {
                Some(&n) if o == 0 && target == block => Target::Copy(n),
                _ => Target::Other,
            };
        }
        match self.by_hash.get(&ctx) {
            Some(&c) if self.ctxs[c as usize].func == func => {
                Target::Copy(self.ctxs[c as usize].node_base + first + o as u32)
            }
            _ => Target::Branch(func, block, o as u32),
        }
    }

    /// 1 if a located outcome's own goal is uncovered, else 0.
    pub fn own(&self, t: Target, covered: &[bool]) -> f64 {
        let g = match t {
            Target::Copy(n) => self.goal[n as usize],
            Target::Branch(f, b, o) => {
                let fb = &self.fb[f as usize];
                fb.goals[(fb.first[b as usize] + o) as usize]
            }
            Target::Other => return 0.0,
        };
        if uncovered(g, covered) { 1.0 } else { 0.0 }
    }

    /// Current weight of a located outcome.
    pub fn weight(&self, t: Target, covered: &[bool]) -> f64 {
        match t {
            Target::Copy(n) => self.weights[n as usize],
            Target::Branch(f, b, o) => match self.copies.get(&(f, b)) {
                Some(bases) => bases
                    .iter()
                    .map(|&n| self.weights[(n + o) as usize])
                    .fold(0.0, f64::max),
                // No copy at all (only reached indirectly): rule 1.
                None => {
                    let fb = &self.fb[f as usize];
                    let g = fb.goals[(fb.first[b as usize] + o) as usize];
                    if uncovered(g, covered) { 1.0 } else { 0.0 }
                }
            },
            Target::Other => 0.0,
        }
    }

    /// Recomputes every weight for the current coverage: a memoised depth-first traversal, linear
    /// in nodes + ISB edges. A node needed again while it is still being computed (a cycle: loop
    /// or loop around a call) is on the *wait queue* and counts 1 if uncovered, else 0.
    pub fn update(&mut self, covered: &[bool]) {
        const NEW: u8 = 0;
        const WAITING: u8 = 1;
        const DONE: u8 = 2;
        let n = self.goal.len();
        let mut state = vec![NEW; n];
        let mut stack: Vec<(u32, u32)> = vec![];
        for root in 0..n as u32 {
            if state[root as usize] != NEW {
                continue;
            }
            state[root as usize] = WAITING;
            stack.push((root, self.isb_start[root as usize]));
            while let Some(&(v, pos)) = stack.last() {
                let end = self.isb_start[v as usize + 1];
                let mut p = pos;
                while p < end && state[self.isb[p as usize] as usize] != NEW {
                    p += 1;
                }
                if p < end {
                    let w = self.isb[p as usize];
                    stack.last_mut().unwrap().1 = p + 1;
                    state[w as usize] = WAITING;
                    stack.push((w, self.isb_start[w as usize]));
                    continue;
                }
                let start = self.isb_start[v as usize];
                let (mut sum, mut lo, mut hi) = (0.0f64, f64::INFINITY, f64::NEG_INFINITY);
                for &w in &self.isb[start as usize..end as usize] {
                    let x = if state[w as usize] == DONE {
                        self.weights[w as usize]
                    } else if uncovered(self.goal[w as usize], covered) {
                        1.0
                    } else {
                        0.0
                    };
                    sum += x;
                    lo = lo.min(x);
                    hi = hi.max(x);
                }
                let k = end - start;
                let unc = uncovered(self.goal[v as usize], covered);
                self.weights[v as usize] = if k == 0 {
                    if unc { 1.0 } else { 0.0 }
                } else {
                    let avg = sum / k as f64;
                    if unc {
                        avg + 1.0
                    } else if hi - lo <= 1e-9 * hi.abs().max(1.0) {
                        self.alpha * avg
                    } else {
                        avg
                    }
                };
                state[v as usize] = DONE;
                stack.pop();
            }
        }
    }
}

/// Can the shadow record a check at this instruction (a memory access, a division, a call
/// into the runtime or libc)?
fn may_check(m: &Module, i: &Inst) -> bool {
    use crate::ir::BinOp::*;
    match i {
        Inst::Load { .. } | Inst::Store { .. } | Inst::Alloca { .. } => true,
        Inst::Bin { op, .. } => matches!(op, UDiv | SDiv | URem | SRem),
        Inst::Call { callee, .. } => match callee {
            Callee::Func(t) => m.functions[*t as usize].blocks.is_empty(),
            Callee::Indirect(_) => true,
        },
        _ => false,
    }
}

/// Branches without a goal (Cairn's runtime) count as covered: they are worth nothing themselves.
fn uncovered(g: GoalId, covered: &[bool]) -> bool {
    g != NO_GOAL && !covered.get(g as usize).copied().unwrap_or(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::frontend::{CompileOptions, TempDir, load};

    fn graph(src: &str) -> (Module, ExpectationGraph) {
        let dir = TempDir::new("expectation").unwrap();
        let p = dir.path().join("t.c");
        std::fs::write(&p, src).unwrap();
        let m = load(&[p], &CompileOptions::default()).unwrap();
        let g = ExpectationGraph::new(&m, "main", ALPHA);
        (m, g)
    }

    /// Block of the (single) branch at source line `line` of function `f`.
    fn branch_at(m: &Module, f: &str, line: u32) -> (FuncId, BlockId) {
        let fid = m.func_by_name[f];
        (
            fid,
            m.branch_goals
                .iter()
                .find(|g| g.func == fid && g.loc.line == line)
                .unwrap()
                .block,
        )
    }

    /// Nodes of outcome `o` of the branch at `line` of `f`, one per copy.
    fn nodes_at(m: &Module, g: &ExpectationGraph, f: &str, line: u32, o: u32) -> Vec<u32> {
        g.copies[&branch_at(m, f, line)]
            .iter()
            .map(|b| b + o)
            .collect()
    }

    fn goal_of(m: &Module, f: FuncId, b: BlockId, o: u32) -> GoalId {
        outcomes(&m.functions[f as usize].blocks[b as usize].term).unwrap()[o as usize].1
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    const SRC: &str = "extern int __VERIFIER_nondet_int(void);
int leaf(int x) {
  if (x > 5)
    return 1;
  return 0;
}
int main(void) {
  int a = __VERIFIER_nondet_int();
  if (a > 0) {
    if (a > 10)
      return 2;
    return 3;
  }
  leaf(a);
  leaf(a + 1);
  return 0;
}
";

    #[test]
    fn weight_rules() {
        let (m, mut g) = graph(SRC);
        // Two copies of leaf's branch, one per call site.
        let leaf_t = nodes_at(&m, &g, "leaf", 3, 0);
        assert_eq!(leaf_t.len(), 2, "one copy per call site");
        let none = vec![false; m.branch_goals.len()];
        g.update(&none);
        // Rule 1: an uncovered branch with no subsequent branch weighs 1 (main's a > 10 sides,
        // and the second call's leaf branches).
        let inner_t = nodes_at(&m, &g, "main", 10, 0)[0];
        assert!(close(g.weights[inner_t as usize], 1.0));
        // Rule 2: uncovered with ISBs: W_avg + 1. a > 0 true -> {a>10 true, a>10 false} -> 2.
        let outer_t = nodes_at(&m, &g, "main", 9, 0)[0];
        assert!(close(g.weights[outer_t as usize], 2.0));
        // The second copy of leaf has no successors: 1 each; the first copy leads to the second:
        // 1 + 1 = 2 each. a > 0 false -> first copy: 2 + 1 = 3.
        let w: Vec<f64> = leaf_t.iter().map(|&n| g.weights[n as usize]).collect();
        assert!(
            w.iter().any(|&x| close(x, 2.0)) && w.iter().any(|&x| close(x, 1.0)),
            "{w:?}"
        );
        let outer_f = nodes_at(&m, &g, "main", 9, 1)[0];
        assert!(close(g.weights[outer_f as usize], 3.0));

        // Rule 3 (goals are shared by copies): cover main's branches.
        let mut cov = none.clone();
        for (i, goal) in m.branch_goals.iter().enumerate() {
            if goal.func == m.func_by_name["main"] {
                cov[i] = true;
            }
        }
        // a > 10 sides covered now: leaves weigh 0, so a > 0 true weighs alpha * 0 = 0.
        g.update(&cov);
        assert!(close(g.weights[outer_t as usize], 0.0));
        // a > 0 false (covered) -> first leaf copy (uncovered, weighs 2 each) -> alpha * 2.
        assert!(
            close(g.weights[outer_f as usize], ALPHA * 2.0),
            "{}",
            g.weights[outer_f as usize]
        );
        // Cover leaf's true side: first copy's true outcome is covered; its ISBs are the second
        // copy's outcomes, which weigh 0 (covered, leaf) and 1 (uncovered): unequal -> W_avg.
        let (lf, lb) = branch_at(&m, "leaf", 3);
        let lt = goal_of(&m, lf, lb, 0);
        cov[lt as usize] = true;
        g.update(&cov);
        let first_copy_t = *leaf_t
            .iter()
            .max_by(|a, b| g.weights[**a as usize].total_cmp(&g.weights[**b as usize]))
            .unwrap();
        assert!(
            close(g.weights[first_copy_t as usize], 0.5),
            "{}",
            g.weights[first_copy_t as usize]
        );
    }

    #[test]
    fn a_checks_passing_outcome_weighs_what_follows_it() {
        let src = "extern int __VERIFIER_nondet_int(void);
int table[4] = {1, 2, 3, 4};
int main(void) {
  int v = table[__VERIFIER_nondet_int()];
  if (v > 2) {
    if (v > 3)
      return 1;
    return 2;
  }
  return 0;
}
";
        let (m, mut g) = graph(src);
        g.update(&vec![false; m.branch_goals.len()]);
        // The read's bounds check is recorded at the block of `v > 2`, with the block itself
        // as target. Its ISBs are that branch's outcomes: 1 + (1 + 1) / 2 = 2 and 1, unequal,
        // so it weighs their mean; failing it ends the run and weighs nothing.
        let (f, b) = branch_at(&m, "main", 5);
        let ctx = g.ctxs.iter().find(|c| c.func == f).unwrap().hash;
        let pass = g.locate(ctx, f, b, 0, b);
        assert!(close(g.weight(pass, &[]), 1.5), "{pass:?}");
        assert_eq!(g.locate(ctx, f, b, 1, b), Target::Other);
    }

    #[test]
    fn loops_and_recursion_terminate() {
        let src = "extern int __VERIFIER_nondet_int(void);
int f(int n) { if (n <= 0) return 0; return f(n - 1) + 1; }
int main(void) {
  int n = __VERIFIER_nondet_int();
  int s = 0;
  for (int i = 0; i < n; i++) { if (i == 3) s += f(i); }
  return s == 6;
}
";
        let (m, mut g) = graph(src);
        g.update(&vec![false; m.branch_goals.len()]);
        assert!(g.weights.iter().all(|w| w.is_finite() && *w >= 0.0));
        // f's branch has exactly one copy: the recursive call is not expanded again.
        let f = m.func_by_name["f"];
        let b = m.branch_goals.iter().find(|x| x.func == f).unwrap().block;
        assert_eq!(g.copies[&(f, b)].len(), 1);
        // A tiny cap truncates the expansion but keeps main.
        let g2 = ExpectationGraph::with_cap(&m, "main", ALPHA, 4);
        assert!(g2.truncated);
    }
}
