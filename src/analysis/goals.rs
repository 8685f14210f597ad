//! Coverage goals: one per branch outcome and switch case, one per error-function call site.

use crate::exec::RunResult;
use crate::ir::{Callee, Inst, Loc, Module};
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GoalKind {
    Branch,
    Error,
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
}

/// All goals of a program. Branch goal `i` of the IR is goal `i` here; error goals follow.
#[derive(Clone, Debug)]
pub struct Goals {
    pub goals: Vec<Goal>,
    pub num_branches: usize,
    /// Call-site id of each error goal (index = goal id - num_branches).
    pub error_sites: Vec<u32>,
}

pub fn is_error_function(name: &str) -> bool {
    name == "reach_error" || name == "__VERIFIER_error"
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
            })
            .collect();
        let num_branches = goals.len();
        let mut error_sites = vec![];
        for f in &m.functions {
            for b in &f.blocks {
                for i in &b.insts {
                    let (site, name) = match i {
                        Inst::Call {
                            callee: Callee::Func(t),
                            site,
                            ..
                        } => (*site, m.functions[*t as usize].name.as_str()),
                        Inst::CallExtern { ext, site, .. } => {
                            (*site, m.externs[*ext as usize].name.as_str())
                        }
                        _ => continue,
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
        }
    }

    pub fn len(&self) -> usize {
        self.goals.len()
    }

    pub fn is_empty(&self) -> bool {
        self.goals.is_empty()
    }

    /// Goal ids covered by a run.
    pub fn covered_by(&self, r: &RunResult) -> Vec<usize> {
        let mut v: Vec<usize> = r
            .branches
            .iter()
            .enumerate()
            .filter(|(_, b)| **b)
            .map(|(i, _)| i)
            .collect();
        for s in &r.errors_hit {
            if let Some(k) = self.error_sites.iter().position(|e| e == s) {
                v.push(self.num_branches + k);
            }
        }
        v.sort();
        v.dedup();
        v
    }
}
