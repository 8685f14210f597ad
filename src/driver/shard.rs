//! Many machines: `--shard K/N` gives shard K a deterministic share of the goals, so N
//! independent runs (any scheduler, any machines) decide disjoint sets of goals and their
//! output directories merge by goal (`output::merge`). For a multi-function target
//! (`--entry f,g,...`) the entry functions go round the shards too.
//!
//! Testing splits the paths: a shard explores the paths whose first `split_depth` input-
//! dependent decisions hash to it (and every shorter prefix), so the shards' exploration does
//! not overlap, and when every shard has explored its share exactly, the merge proves every
//! goal no test covers unreachable, as one exhaustive exploration would.

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

    /// Decisions a path's owner is told by: enough prefixes (at least 16 per shard with two-way
    /// branches) that shares balance even when the tree is lopsided.
    pub fn split_depth(&self) -> usize {
        self.count.next_power_of_two().trailing_zeros() as usize + 4
    }

    /// Whether this shard explores the paths that start with `decisions` (the outcomes taken
    /// at the path's input-dependent branches, in order): `None` while fewer than
    /// `split_depth` are known (every shard explores those prefixes). FNV-1a, so that every
    /// shard and every build computes the same owner.
    pub fn owns_path(&self, decisions: impl Iterator<Item = usize>) -> Option<bool> {
        let depth = self.split_depth();
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut n = 0;
        for d in decisions.take(depth) {
            for b in (d as u64).to_le_bytes() {
                h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
            }
            n += 1;
        }
        (n == depth).then(|| h % self.count as u64 == (self.index - 1) as u64)
    }

    /// This shard's entry functions of a multi-function target, each with the share of its
    /// goals this shard decides. `entries` must be in the same order in every shard (the
    /// caller sorts them). Entry i goes to the shards k with i % N == k when there are more
    /// entries than shards (each then decides all of an entry's goals), and to the shards k
    /// with k % E == i otherwise (they split its goals as `--shard` does on one entry).
    pub fn entries<'a>(&self, entries: &'a [String]) -> Vec<(&'a str, Shard)> {
        let (k, n, e) = (self.index - 1, self.count, entries.len());
        if e > n {
            return entries
                .iter()
                .enumerate()
                .filter(|&(i, _)| i % n == k)
                .map(|(_, f)| (f.as_str(), Shard { index: 1, count: 1 }))
                .collect();
        }
        let i = k % e;
        // Shards i, i + E, i + 2E, ... below N share entry i.
        let count = (n - i).div_ceil(e);
        vec![(
            entries[i].as_str(),
            Shard {
                index: k / e + 1,
                count,
            },
        )]
    }
}

#[cfg(test)]
mod tests {
    use super::Shard;

    fn split(entries: &[&str], n: usize) -> Vec<Vec<(String, String)>> {
        let entries: Vec<String> = entries.iter().map(|s| s.to_string()).collect();
        (1..=n)
            .map(|k| {
                Shard { index: k, count: n }
                    .entries(&entries)
                    .into_iter()
                    .map(|(f, s)| (f.to_string(), s.to_string()))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn every_path_has_one_owner() {
        let shards: Vec<Shard> = (1..=3).map(|index| Shard { index, count: 3 }).collect();
        let depth = shards[0].split_depth();
        let mut per_shard = [0; 3];
        for bits in 0..1u32 << depth {
            let path: Vec<usize> = (0..depth + 2).map(|i| (bits >> i) as usize & 1).collect();
            let owners: Vec<usize> = (0..3)
                .filter(|&k| shards[k].owns_path(path.iter().copied()) == Some(true))
                .collect();
            assert_eq!(owners.len(), 1, "{path:?}");
            per_shard[owners[0]] += 1;
            // A shorter prefix is everyone's.
            assert_eq!(shards[0].owns_path(path[..depth - 1].iter().copied()), None);
        }
        assert!(per_shard.iter().all(|&n| n > 0), "{per_shard:?}");
    }

    #[test]
    fn entries_go_round_the_shards() {
        let p = |f: &str, s: &str| (f.to_string(), s.to_string());
        // More entries than shards: each entry in exactly one shard, all its goals.
        assert_eq!(
            split(&["a", "b", "c"], 2),
            vec![vec![p("a", "1/1"), p("c", "1/1")], vec![p("b", "1/1")]]
        );
        // More shards than entries: each shard one entry, an entry's shards split its goals.
        assert_eq!(
            split(&["a", "b"], 5),
            vec![
                vec![p("a", "1/3")],
                vec![p("b", "1/2")],
                vec![p("a", "2/3")],
                vec![p("b", "2/2")],
                vec![p("a", "3/3")],
            ]
        );
        assert_eq!(
            split(&["a", "b"], 2),
            vec![vec![p("a", "1/1")], vec![p("b", "1/1")]]
        );
    }
}
