//! Coverage goals: one per branch outcome and switch case, one per error-function call site.

use crate::analysis::defuse::{DefSite, DefUse};
use crate::ir::{Loc, Module};
use serde::Serialize;

/// What a run covered, as the goals count it (the interpreter's `RunResult` says it).
pub trait RunCoverage {
    /// Per branch goal: how many times the run took it.
    fn branch_counts(&self) -> &[u32];
    /// Call sites of error functions the run reached.
    fn error_sites_hit(&self) -> &[u32];
    /// Def-use pairs the run covered (when the program tracks them).
    fn def_use_pairs(&self) -> &[u32];
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GoalKind {
    Branch,
    Error,
    /// A def-use pair of a source variable (data-flow testing).
    #[serde(rename = "def-use")]
    DefUse,
}

/// What a def-use goal pairs: `variable` defined at `def_line` (0: a global's initial value)
/// and used at `use_line`, as a computation (c-use) or in a branch taking `Goal::outcome` (p-use).
#[derive(Clone, Debug, Serialize)]
pub struct DefUseGoal {
    pub pair: u32,
    pub variable: String,
    pub def_line: u32,
    /// Column of the definition (two definitions may share a line: a `for` header).
    pub def_column: u32,
    pub use_line: u32,
    pub use_kind: &'static str,
    /// `variable def L p-use L outcome`, with columns where a line is ambiguous.
    #[serde(skip)]
    pub label: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct Goal {
    pub id: usize,
    pub kind: GoalKind,
    pub function: String,
    /// `true`/`false`, `case N`/`default`, or `reach_error` for error goals.
    pub outcome: String,
    #[serde(skip)]
    pub loc: Loc,
    #[serde(skip)]
    pub target_loc: Loc,
    #[serde(skip)]
    pub def_use: Option<DefUseGoal>,
}

/// All goals of a program. Branch goal `i` of the IR is goal `i` here; error goals follow.
#[derive(Clone, Debug)]
pub struct Goals {
    pub goals: Vec<Goal>,
    pub num_branches: usize,
    /// Call-site id of each error goal (index = goal id - num_branches).
    pub error_sites: Vec<u32>,
    /// Goal id of def-use pair 0 (pairs follow the error goals), when pairs are goals.
    pub def_use_base: Option<usize>,
}

pub fn is_error_function(name: &str) -> bool {
    crate::ir::is_error_call(name)
}

impl Goals {
    pub fn of(m: &Module) -> Goals {
        let mut goals: Vec<Goal> = m
            .branch_goals
            .iter()
            .enumerate()
            .map(|(i, g)| Goal {
                id: i,
                kind: GoalKind::Branch,
                function: m.functions[g.func as usize].name.clone(),
                outcome: g.outcome.clone(),
                loc: g.loc,
                target_loc: g.target_loc,
                def_use: None,
            })
            .collect();
        let num_branches = goals.len();
        let mut error_sites = vec![];
        for f in &m.functions {
            for b in &f.blocks {
                for i in &b.insts {
                    let Some((site, name)) = m.direct_call(i) else {
                        continue;
                    };
                    if is_error_function(name) {
                        let loc = m.call_sites[site as usize];
                        goals.push(Goal {
                            id: goals.len(),
                            kind: GoalKind::Error,
                            function: f.name.clone(),
                            outcome: name.to_string(),
                            loc,
                            target_loc: loc,
                            def_use: None,
                        });
                        error_sites.push(site);
                    }
                }
            }
        }
        Goals {
            goals,
            num_branches,
            error_sites,
            def_use_base: None,
        }
    }

    /// Adds every def-use pair of `du` as a goal (after the branch and error goals).
    pub fn add_def_use(&mut self, m: &Module, du: &DefUse) {
        self.def_use_base = Some(self.goals.len());
        for (i, p) in du.pairs.iter().enumerate() {
            let d = &du.defs[p.def as usize];
            let u = &du.uses[p.use_ as usize];
            let v = &du.vars[u.var as usize];
            self.goals.push(Goal {
                id: self.goals.len(),
                kind: GoalKind::DefUse,
                function: m.functions[u.at.0 as usize].name.clone(),
                outcome: p
                    .outcome
                    .map(|o| u.outcomes[o as usize].clone())
                    .unwrap_or_default(),
                loc: u.loc,
                target_loc: u.loc,
                def_use: Some(DefUseGoal {
                    pair: i as u32,
                    variable: v.name.clone(),
                    def_line: match d.site {
                        DefSite::Entry => 0,
                        DefSite::At(_) => d.loc.line,
                    },
                    def_column: match d.site {
                        DefSite::Entry => 0,
                        DefSite::At(_) => d.loc.col,
                    },
                    use_line: u.loc.line,
                    label: du.describe(i as u32),
                    use_kind: if p.outcome.is_some() {
                        "p-use"
                    } else {
                        "c-use"
                    },
                }),
            });
        }
    }

    /// Number of error-call goals.
    pub fn num_errors(&self) -> usize {
        self.error_sites.len()
    }

    pub fn len(&self) -> usize {
        self.goals.len()
    }

    /// The goal of the error call at call site `site`, if it is one.
    pub fn error_goal(&self, site: u32) -> Option<u32> {
        let k = self.error_sites.iter().position(|e| *e == site)?;
        Some((self.num_branches + k) as u32)
    }

    pub fn is_empty(&self) -> bool {
        self.goals.is_empty()
    }

    /// Goal ids covered by a run.
    pub fn covered_by(&self, r: &impl RunCoverage) -> Vec<usize> {
        let mut v: Vec<usize> = r
            .branch_counts()
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(i, _)| i)
            .collect();
        for s in r.error_sites_hit() {
            if let Some(k) = self.error_sites.iter().position(|e| e == s) {
                v.push(self.num_branches + k);
            }
        }
        if let Some(base) = self.def_use_base {
            v.extend(r.def_use_pairs().iter().map(|p| base + *p as usize));
        }
        v.sort();
        v.dedup();
        v
    }
}
