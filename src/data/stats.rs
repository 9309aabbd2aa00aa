//! What a step did.

/// What the last step did.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct StepStats {
    pub iterations: usize,
    /// Largest residual entry at the end of the step.
    pub residual: f64,
    /// The residual stalled above the tolerance but below the acceptance level.
    pub stalled: bool,
    /// Backtracking halvings summed over the step.
    pub line_search_halvings: usize,
    /// Contacts in the model.
    pub contacts: usize,
    /// Contacts whose normal force exceeds their gap slack (N vs m) at the solution.
    pub active_contacts: usize,
    /// Largest complementarity product at the end of the step (0 without contacts).
    pub complementarity: f64,
    /// The direct contact solve failed and the Tresca fixed point took over.
    pub fallback: bool,
    /// Rounds of the Tresca fixed point (0 unless `fallback`).
    pub tresca_rounds: usize,
    /// Warm-started contact solves that failed and were restarted cold (their iterations
    /// are counted in `iterations`).
    pub cold_restarts: usize,
    /// Intervals the step took: 1, or more when it had to be split (see `Sim::step`).
    pub substeps: usize,
}
