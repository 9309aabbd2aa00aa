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
    /// The direct contact solve failed and a rescue (the Tresca fixed point, the relaxed
    /// solve) took over.
    pub fallback: bool,
    /// Rounds of the Tresca fixed point (0 unless `fallback`).
    pub tresca_rounds: usize,
    /// Warm-started contact solves that failed and were restarted cold (their iterations
    /// are counted in `iterations`).
    pub cold_restarts: usize,
    /// The Coulomb solve and the Tresca rescue failed and the step was solved with the gap
    /// rows relaxed (Anitescu's convex relaxation, `step::relaxed`): rigid and in the cone,
    /// sliding contacts separating by dt μ_f v_slip.
    pub relaxed: bool,
    /// Intervals the step took: 1, or more when it had to be split (see `Sim::step`).
    pub substeps: usize,
    /// Newton matrices factored (interior-point iterations, the projected Newton's
    /// directions that are not chords, the polish's active-set Newton, Newton without
    /// contacts): the step's cost.
    pub factorizations: usize,
}

impl StepStats {
    /// Adds the work of `other` (a solve whose result was not kept) to this one's:
    /// iterations, halvings, Tresca rounds, cold restarts and substeps add up; the
    /// measurements (residual, contacts, complementarity) and flags stay this one's.
    pub fn add_work(&mut self, other: &StepStats) {
        self.iterations += other.iterations;
        self.line_search_halvings += other.line_search_halvings;
        self.tresca_rounds += other.tresca_rounds;
        self.cold_restarts += other.cold_restarts;
        self.substeps += other.substeps;
        self.factorizations += other.factorizations;
    }

    /// A restart (cold, or refined) after the solve `failed`, whose work counts.
    pub fn restarted_after(mut self, failed: &StepStats) -> StepStats {
        self.add_work(failed);
        self.cold_restarts += 1;
        self
    }

    /// Adds a Tresca round (`step::tresca`), whose result is not kept: its work counts.
    pub fn add_round(&mut self, round: &StepStats) {
        self.add_work(round);
        self.tresca_rounds += 1;
    }

    /// This solve after earlier attempts of the same interval that took `iterations`
    /// (solves again with a contact added, a whole step before it was split): their
    /// iterations count, everything else is this one's.
    pub fn after_attempts(self, iterations: usize) -> StepStats {
        StepStats { iterations: self.iterations + iterations, ..self }
    }

    /// This solve followed by `next`, whose result is kept: the work adds up, the flags
    /// (`fallback`, `stalled`) hold if either set them, the measurements are `next`'s.
    pub fn then(self, next: StepStats) -> StepStats {
        let mut total = StepStats { fallback: self.fallback || next.fallback, relaxed: self.relaxed || next.relaxed, stalled: self.stalled || next.stalled, ..next };
        total.add_work(&self);
        total
    }
}
