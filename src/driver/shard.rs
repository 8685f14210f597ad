//! Many machines: `--shard K/N` gives shard K a deterministic share of the goals, so N
//! independent runs (any scheduler, any machines) decide disjoint sets of goals and their
//! output directories merge by goal (`output::merge`).

use crate::analysis::goals::Goals;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 1-based, as schedulers number array jobs and slots.
    pub index: usize,
    pub count: usize,
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// `K/N` with 1 <= K <= N.
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("invalid shard `{s}`: K/N with 1 <= K <= N (e.g. 2/4)");
        let (k, n) = s.trim().split_once('/').ok_or_else(bad)?;
        let index: usize = k.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// Which shard owns each goal. The outcomes of one branch (and the cases of one switch)
    /// stay together — one search reaches the branch, then flips it —, and branches go round
    /// the shards in program order, so each shard gets a share of every function.
    pub fn owners(goals: &Goals, count: usize) -> Vec<usize> {
        let mut owner = Vec::with_capacity(goals.len());
        let mut group = 0usize;
        let mut last: Option<(&str, u32, u32)> = None;
        for g in &goals.goals {
            let key = (g.function.as_str(), g.loc.line, g.loc.col);
            if last.is_some_and(|l| l != key) {
                group += 1;
            }
            last = Some(key);
            owner.push(group % count);
        }
        owner
    }

    /// Goals of other shards (to take out of this shard's run).
    pub fn others(&self, goals: &Goals) -> Vec<usize> {
        Self::owners(goals, self.count)
            .into_iter()
            .enumerate()
            .filter(|&(_, o)| o != self.index - 1)
            .map(|(g, _)| g)
            .collect()
    }
}
