//! Random testing: the baseline generator. Runs the program on random inputs and keeps every
//! run that covers a new goal.

use crate::driver::session::Session;
use crate::driver::technique::Technique;
use crate::exec::Config;
use crate::exec::input::RandomInputs;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::time::Instant;

pub struct RandomTesting {
    inputs: RandomInputs<SmallRng>,
    cfg: Config,
    runs: u64,
}

impl RandomTesting {
    pub fn new(seed: u64, cfg: &Config) -> RandomTesting {
        RandomTesting {
            inputs: RandomInputs {
                rng: SmallRng::seed_from_u64(seed),
            },
            cfg: cfg.clone(),
            runs: 0,
        }
    }
}

impl Technique for RandomTesting {
    fn name(&self) -> &'static str {
        "random"
    }

    fn run(&mut self, s: &mut Session, until: Instant) -> anyhow::Result<()> {
        while !s.should_stop() && Instant::now() < until {
            let r = s.program.run(&mut self.inputs, &self.cfg);
            s.record(&r, "random")?;
            self.runs += 1;
            s.tick(|| format!("random runs {}", self.runs));
        }
        Ok(())
    }

    fn stats(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut m = serde_json::Map::new();
        m.insert("strategy".into(), "random".into());
        m.insert("random".into(), serde_json::json!({ "runs": self.runs }));
        m
    }
}
