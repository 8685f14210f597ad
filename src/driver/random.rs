//! Random testing: the baseline generator. Runs the program on random inputs and keeps every
//! run that covers a new goal.

use crate::driver::session::Session;
use crate::exec::Config;
use crate::exec::input::RandomInputs;
use rand::SeedableRng;
use rand::rngs::SmallRng;

pub fn run(s: &mut Session, seed: u64, cfg: &Config) -> anyhow::Result<()> {
    let mut src = RandomInputs {
        rng: SmallRng::seed_from_u64(seed),
    };
    while !s.should_stop() {
        let r = s.program.run(&mut src, cfg);
        s.record(&r, "random")?;
    }
    Ok(())
}
