//! Independent check of an ARG before its proofs are reported: the ARG is a certificate when
//! every transition of every expanded state leads to a child whose predicates that state and
//! the transition imply (or is infeasible from it), and every covered state is covered by a
//! state at the same place with fewer predicates. A fresh solver instance checks each step;
//! nothing the construction cached or concluded is reused.

use super::arg::{Arg, INIT, ModelChecker};
use super::model::{Effect, Next};
use crate::smt::expr::ExprId;
use crate::smt::solver::{Answer, Backend, Z3Backend};
use std::collections::HashMap;
use std::time::Instant;

/// Ok when the ARG is closed and sound; otherwise why not.
pub fn check_arg(mc: &mut ModelChecker, arg: &Arg, deadline: Instant) -> Result<(), String> {
    if !arg.complete {
        return Err("the ARG is incomplete".into());
    }
    let root = arg.nodes.first().ok_or("empty ARG")?;
    if root.loc != INIT || !root.preds.is_empty() {
        return Err("the root is not the initial state".into());
    }
    let mut solver = Z3Backend::new();
    let mut children: HashMap<(usize, usize), usize> = HashMap::new();
    for (i, n) in arg.nodes.iter().enumerate() {
        if let Some(p) = n.parent {
            children.insert((p, n.edge), i);
        }
    }
    for (i, n) in arg.nodes.iter().enumerate() {
        if let Some(c) = n.covered_by {
            let by = &arg.nodes[c];
            if by.loc != n.loc
                || by.stack != n.stack
                || by.covered_by.is_some()
                || !by.preds.iter().all(|p| n.preds.contains(p))
            {
                return Err(format!("node {i}: bad coverage by {c}"));
            }
            continue;
        }
        if n.terminal {
            continue;
        }
        for (ti, t) in mc.transitions(n.loc).into_iter().enumerate() {
            let mut effects = vec![t.effect.clone()];
            let (target, stack) = match &t.next {
                Next::Goto(l) => (Some(*l), (*n.stack).clone()),
                Next::Call { callee, ret_to } => {
                    let mut st = (*n.stack).clone();
                    st.push(*ret_to);
                    let l = super::model::Loc {
                        func: *callee,
                        block: 0,
                        ip: 0,
                    };
                    (Some(l), st)
                }
                Next::Return => match n.stack.last() {
                    Some(r) => {
                        effects.push(mc.return_effect(*r, n.loc.func));
                        let mut st = (*n.stack).clone();
                        st.pop();
                        (Some(*r), st)
                    }
                    None => (None, vec![]),
                },
                Next::End => (None, vec![]),
            };
            // Guards over the state of `n`, and the effects composed.
            let mut cons: Vec<ExprId> = n.preds.clone();
            let mut acc = Effect::default();
            for e in &effects {
                for g in &e.guards {
                    cons.push(mc.wp(*g, &acc));
                }
                acc = super::chc::compose(mc, &[acc.clone(), e.clone()]);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err("out of time".into());
            }
            match children.get(&(i, ti)) {
                None => {
                    // No child: the transition must be infeasible from this state.
                    if solver.check(&mc.model.pool, &cons, left, &|_| 0) != Answer::Unsat {
                        return Err(format!("node {i}: transition {ti} is missing"));
                    }
                }
                Some(&c) => {
                    let child = &arg.nodes[c];
                    let place_ok = match target {
                        Some(l) => child.loc == l && *child.stack == stack,
                        None => child.loc == n.loc,
                    };
                    if !place_ok || child.goal != t.goal || child.error_site != t.error_site {
                        return Err(format!("node {i}: child {c} is elsewhere"));
                    }
                    let negs: Vec<ExprId> = child
                        .preds
                        .iter()
                        .map(|p| {
                            let q = mc.wp(*p, &acc);
                            mc.model.pool.not(q)
                        })
                        .collect();
                    let answers = solver.check_each(&mc.model.pool, &cons, &negs, left);
                    if answers.iter().any(|a| *a != Answer::Unsat) {
                        return Err(format!("node {i}: child {c} claims too much"));
                    }
                }
            }
        }
    }
    Ok(())
}
