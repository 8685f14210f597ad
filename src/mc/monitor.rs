//! MonitorFromARG (section 5 of the abstraction-driven concolic testing paper): the program the
//! final abstract reachability graph allows. Its states are the ARG's non-subsumed abstract
//! states; an edge to a subsumed state is redirected to the state that subsumes it, so the
//! monitor is deterministic: from a state, each transition of the model (a segment, a call, a
//! branch outcome) leads to at most one state. A transition the monitor lacks is infeasible: the
//! abstraction proved that no run takes it from there.
//!
//! Only a complete, certified ARG makes a monitor (an incomplete one has states never expanded,
//! whose missing transitions prove nothing).

use super::arg::Arg;
use super::model::Loc;
use crate::analysis::goals::Goals;

pub type StateId = u32;

#[derive(Debug)]
pub struct Monitor {
    /// Per state: its program location.
    pub locs: Vec<Loc>,
    /// Per state: (model transition index, target state, goal the transition covers), sorted.
    pub succ: Vec<Vec<(u32, StateId, Option<u32>)>>,
    /// Per state: the path ends here (exit, abort, return from the entry).
    pub terminal: Vec<bool>,
    pub root: StateId,
    /// Per state: the goals on some monitor path from it (a bit set of `words` words).
    reach: Vec<u64>,
    words: usize,
    /// Per state: the states with a transition to it.
    preds: Vec<Vec<StateId>>,
}

impl Monitor {
    /// The monitor of `arg`; None when the ARG is incomplete or empty.
    pub fn from_arg(arg: &Arg, goals: &Goals) -> Option<Monitor> {
        if !arg.complete || arg.nodes.is_empty() {
            return None;
        }
        // The non-subsumed node each node stands for (subsumption chains end in one).
        let resolve = |mut n: usize| {
            let mut steps = 0;
            while let Some(c) = arg.nodes[n].covered_by {
                n = c;
                steps += 1;
                if steps > arg.nodes.len() {
                    return None;
                }
            }
            Some(n)
        };
        let mut state_of = vec![u32::MAX; arg.nodes.len()];
        let mut locs = vec![];
        let mut terminal = vec![];
        for (i, n) in arg.nodes.iter().enumerate() {
            if n.covered_by.is_none() {
                state_of[i] = locs.len() as u32;
                locs.push(n.loc);
                terminal.push(n.terminal);
            }
        }
        let mut succ: Vec<Vec<(u32, StateId, Option<u32>)>> = vec![vec![]; locs.len()];
        for (i, n) in arg.nodes.iter().enumerate() {
            let Some(p) = n.parent else { continue };
            let from = state_of[p];
            let to = state_of[resolve(i)?];
            if from == u32::MAX || to == u32::MAX {
                return None;
            }
            let goal = n.goal.or_else(|| {
                n.error_site.and_then(|e| {
                    goals
                        .error_sites
                        .iter()
                        .position(|x| *x == e)
                        .map(|k| (goals.num_branches + k) as u32)
                })
            });
            succ[from as usize].push((n.edge as u32, to, goal));
        }
        for s in &mut succ {
            s.sort();
        }
        let words = goals.goals.len().div_ceil(64).max(1);
        let mut m = Monitor {
            locs,
            succ,
            terminal,
            root: state_of[0],
            reach: vec![],
            words,
            preds: vec![],
        };
        m.compute_reach();
        Some(m)
    }

    /// Goals reachable from each state: a fixpoint over the (cyclic) monitor graph.
    fn compute_reach(&mut self) {
        let (n, w) = (self.locs.len(), self.words);
        let mut reach = vec![0u64; n * w];
        let mut preds: Vec<Vec<u32>> = vec![vec![]; n];
        for (s, out) in self.succ.iter().enumerate() {
            for &(_, t, g) in out {
                preds[t as usize].push(s as u32);
                if let Some(g) = g {
                    reach[s * w + g as usize / 64] |= 1 << (g % 64);
                }
            }
        }
        let mut work: Vec<u32> = (0..n as u32).collect();
        let mut queued = vec![true; n];
        while let Some(t) = work.pop() {
            queued[t as usize] = false;
            for &s in &preds[t as usize] {
                let mut changed = false;
                for k in 0..w {
                    let add = reach[t as usize * w + k] & !reach[s as usize * w + k];
                    if add != 0 {
                        reach[s as usize * w + k] |= add;
                        changed = true;
                    }
                }
                if changed && !queued[s as usize] {
                    queued[s as usize] = true;
                    work.push(s);
                }
            }
        }
        self.reach = reach;
        self.preds = preds;
    }

    /// Per state: the fewest monitor transitions up to one that covers a goal in `open` (1 from
    /// a state with such a transition; u32::MAX when the monitor reaches none).
    pub fn distances(&self, open: &[bool]) -> Vec<u32> {
        let mut dist = vec![u32::MAX; self.len()];
        let mut queue = std::collections::VecDeque::new();
        for (s, out) in self.succ.iter().enumerate() {
            if out
                .iter()
                .any(|&(_, _, g)| g.is_some_and(|g| open.get(g as usize) == Some(&true)))
            {
                dist[s] = 1;
                queue.push_back(s as StateId);
            }
        }
        while let Some(t) = queue.pop_front() {
            let d = dist[t as usize] + 1;
            for &s in &self.preds[t as usize] {
                if dist[s as usize] > d {
                    dist[s as usize] = d;
                    queue.push_back(s);
                }
            }
        }
        dist
    }

    pub fn len(&self) -> usize {
        self.locs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.locs.is_empty()
    }

    /// The state transition `edge` of `s` leads to, with its goal; None: the transition is
    /// infeasible from `s`.
    pub fn step(&self, s: StateId, edge: u32) -> Option<(StateId, Option<u32>)> {
        let out = &self.succ[s as usize];
        out.binary_search_by_key(&edge, |e| e.0)
            .ok()
            .map(|i| (out[i].1, out[i].2))
    }

    /// Whether goal `g` lies on some monitor path from `s`.
    pub fn reaches(&self, s: StateId, g: usize) -> bool {
        self.reach[s as usize * self.words + g / 64] & (1 << (g % 64)) != 0
    }

    /// The goals reachable from `s`, as bit-set words.
    pub fn reach_words(&self, s: StateId) -> &[u64] {
        &self.reach[s as usize * self.words..(s as usize + 1) * self.words]
    }
}

/// ARG nodes and goals for unit tests of the monitor and of what reads it.
#[cfg(test)]
pub(crate) mod fixtures {
    use crate::analysis::goals::{Goal, GoalKind, Goals};
    use crate::mc::arg::ArgNode;
    use crate::mc::model::Loc;
    use std::rc::Rc;

    pub fn node(loc: u32, parent: Option<usize>, edge: usize, goal: Option<u32>) -> ArgNode {
        ArgNode {
            loc: Loc {
                func: 0,
                block: loc,
                ip: 0,
            },
            stack: Rc::new(vec![]),
            preds: vec![],
            parent,
            effects: vec![],
            goal,
            error_site: None,
            covered_by: None,
            edge: if parent.is_some() { edge } else { usize::MAX },
            terminal: false,
        }
    }

    pub fn goals(n: usize) -> Goals {
        Goals {
            goals: (0..n)
                .map(|id| Goal {
                    id,
                    kind: GoalKind::Branch,
                    function: "f".into(),
                    outcome: "true".into(),
                    loc: Default::default(),
                    target_loc: Default::default(),
                    def_use: None,
                })
                .collect(),
            num_branches: n,
            error_sites: vec![],
            def_use_base: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::{goals, node};
    use super::*;

    /// root -> a; a -[0, goal 0]-> b; a -[1]-> c, covered by b; b -[0, goal 1]-> d (a leaf).
    fn arg(complete: bool) -> Arg {
        let mut nodes = vec![
            node(9, None, 0, None),
            node(1, Some(0), 0, None),
            node(2, Some(1), 0, Some(0)),
            node(2, Some(1), 1, None),
            node(3, Some(2), 0, Some(1)),
        ];
        nodes[3].covered_by = Some(2);
        Arg {
            nodes,
            complete,
            ..Default::default()
        }
    }

    #[test]
    fn subsumed_states_are_replaced_by_their_subsumers() {
        let m = Monitor::from_arg(&arg(true), &goals(3)).unwrap();
        assert_eq!(m.len(), 4, "the covered node is no state");
        let a = m.step(m.root, 0).unwrap().0;
        let (b, g) = m.step(a, 0).unwrap();
        assert_eq!(g, Some(0));
        // The edge to the covered node leads to the node covering it.
        assert_eq!(m.step(a, 1).unwrap().0, b);
        // No such transition: infeasible.
        assert!(m.step(a, 2).is_none());
        assert!(m.reaches(a, 0) && m.reaches(a, 1) && !m.reaches(a, 2));
        assert!(!m.reaches(b, 0) && m.reaches(b, 1));
    }

    #[test]
    fn distances_count_transitions_to_an_open_goal() {
        let m = Monitor::from_arg(&arg(true), &goals(3)).unwrap();
        let a = m.step(m.root, 0).unwrap().0;
        let b = m.step(a, 0).unwrap().0;
        let d = m.distances(&[true, true, true]);
        assert_eq!(
            (d[m.root as usize], d[a as usize], d[b as usize]),
            (2, 1, 1)
        );
        // Goal 0 covered: from a, goal 1 is two transitions away.
        let d = m.distances(&[false, true, true]);
        assert_eq!(
            (d[m.root as usize], d[a as usize], d[b as usize]),
            (3, 2, 1)
        );
        // Goal 2 is on no monitor path.
        let d = m.distances(&[false, false, true]);
        assert!(d.iter().all(|x| *x == u32::MAX));
    }

    #[test]
    fn incomplete_args_make_no_monitor() {
        assert!(Monitor::from_arg(&arg(false), &goals(3)).is_none());
    }
}
