use serde::Serialize;
use sysinfo::System;

#[derive(Serialize)]
pub struct CpuSample { pub usage: f32, pub cores: usize }

pub fn sample_cpu(sys: &mut System) -> CpuSample {
    sys.refresh_cpu_usage();
    let cpus = sys.cpus();
    let usage = cpus.iter().map(|c| c.cpu_usage()).sum::<f32>() / cpus.len() as f32;
    CpuSample { usage, cores: cpus.len() }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn sample_has_cores() {
        let mut sys = System::new();
        assert!(sample_cpu(&mut sys).cores > 0);
    }
}
