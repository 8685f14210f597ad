//! Every search strategy in one place: its name, what it does (the command line's help), where
//! the portfolio of `--jobs N` workers runs it, and how to make one. A new strategy is a file
//! with its `Strategy` implementation and one entry here; the command line, the portfolio and
//! the benches find it by name.

use super::Strategy;
use super::cutpoint::{DataFlowSearch, Ranking};
use super::expectation::Expectation;
use super::shallow::Shallow;
use super::strategies::{CfgDirected, Dfs, Generational, RandomBranch, UniformRandom};

pub struct Entry {
    pub name: &'static str,
    pub help: &'static str,
    /// Searches for def-use pairs (`--criterion def-use`) rather than branches.
    pub data_flow: bool,
    /// Its place among the portfolio's workers (`driver::parallel`); None: not run there.
    pub portfolio: Option<u8>,
    /// Left out of the command line's list (a variant for experiments).
    pub hidden: bool,
    pub make: fn() -> Box<dyn Strategy>,
}

pub const STRATEGIES: &[Entry] = &[
    Entry {
        name: "dfs",
        help: "Concolic, bounded depth-first",
        data_flow: false,
        portfolio: Some(3),
        hidden: false,
        make: || Box::new(Dfs::new(2_000)),
    },
    Entry {
        name: "random-branch",
        help: "Concolic, negate a random branch of the latest path (CREST)",
        data_flow: false,
        portfolio: Some(1),
        hidden: false,
        make: || Box::new(RandomBranch::default()),
    },
    Entry {
        name: "uniform-random",
        help: "Concolic, any pending branch equally likely",
        data_flow: false,
        portfolio: Some(4),
        hidden: false,
        make: || Box::new(UniformRandom::default()),
    },
    Entry {
        name: "cfg",
        help: "Concolic, the pending branch closest to an uncovered goal in the ICFG",
        data_flow: false,
        portfolio: Some(0),
        hidden: false,
        make: || Box::new(CfgDirected::default()),
    },
    Entry {
        name: "generational",
        help: "Concolic, SAGE's generational search",
        data_flow: false,
        portfolio: Some(2),
        hidden: false,
        make: || Box::new(Generational::default()),
    },
    Entry {
        name: "expectation",
        help: "Concolic, the pending branch with the largest expectation of uncovered branches behind it",
        data_flow: false,
        portfolio: Some(5),
        hidden: false,
        make: || Box::new(Expectation::default()),
    },
    Entry {
        name: "shallow",
        help: "Concolic, the pending branch fewest decisions deep (shortest path first)",
        data_flow: false,
        portfolio: None,
        hidden: false,
        make: || Box::new(Shallow::default()),
    },
    Entry {
        name: "cut-point",
        help: "Data flow (--criterion def-use): one pair at a time, the branch furthest along its cut points, then closest to the next one",
        data_flow: true,
        portfolio: None,
        hidden: false,
        make: || Box::new(DataFlowSearch::new(Ranking::CutPoints)),
    },
    Entry {
        name: "cut-point-unpruned",
        help: "cut-point without pruning the pairs a constant definition rules out",
        data_flow: true,
        portfolio: None,
        hidden: true,
        make: || Box::new(DataFlowSearch::new(Ranking::CutPoints).unpruned()),
    },
    Entry {
        name: "shortest-distance",
        help: "Data flow (--criterion def-use): the branch closest to the pair's definition, then to its use",
        data_flow: true,
        portfolio: None,
        hidden: false,
        make: || Box::new(DataFlowSearch::new(Ranking::ShortestDistance)),
    },
];

/// A fresh strategy named `name`.
pub fn by_name(name: &str) -> Option<Box<dyn Strategy>> {
    STRATEGIES
        .iter()
        .find(|e| e.name == name)
        .map(|e| (e.make)())
}

/// The strategies the portfolio's workers run, in their order.
pub fn portfolio() -> Vec<&'static str> {
    let mut v: Vec<&Entry> = STRATEGIES
        .iter()
        .filter(|e| e.portfolio.is_some())
        .collect();
    v.sort_by_key(|e| e.portfolio);
    v.into_iter().map(|e| e.name).collect()
}

/// The branch-coverage strategies (what the strategy benches compare).
pub fn branch_strategies() -> Vec<&'static str> {
    STRATEGIES
        .iter()
        .filter(|e| !e.data_flow && !e.hidden)
        .map(|e| e.name)
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn names_are_unique_and_make_their_strategy() {
        let names: Vec<&str> = super::STRATEGIES.iter().map(|e| e.name).collect();
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len());
        assert_eq!(
            super::portfolio(),
            [
                "cfg",
                "random-branch",
                "generational",
                "dfs",
                "uniform-random",
                "expectation"
            ]
        );
        assert!(super::by_name("cut-point").is_some() && super::by_name("crabs").is_none());
    }
}
