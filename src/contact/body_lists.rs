//! Each body's contacts, for passes over a step's contacts that visit a body's together
//! (the projected Newton's determinacy and crowding tests, the relaxed rescue's gate) in
//! linear time without allocating.

use super::Contact;

/// Per body, a list of contacts through it (`first` per body, `next` per contact and
/// side), for passes that visit each body's contacts together in linear time without
/// allocating. Empty between uses: every `first` is [`BodyLists::NONE`].
#[derive(Debug, Clone, Default)]
pub struct BodyLists {
    pub first: Vec<usize>,
    pub next: Vec<[usize; 2]>,
    /// Per body, a count (zero between uses).
    pub count: Vec<usize>,
}

impl BodyLists {
    pub const NONE: usize = usize::MAX;

    /// Room for the bodies the `contacts` act on.
    pub fn new(contacts: &[Contact]) -> BodyLists {
        let bodies = contacts.iter().map(|c| {
            let (a, b) = c.bodies();
            a.max(b.unwrap_or(0)) + 1
        });
        let bodies = bodies.max().unwrap_or(0);
        BodyLists { first: vec![Self::NONE; bodies], next: vec![[Self::NONE; 2]; contacts.len()], count: vec![0; bodies] }
    }

    /// The most of the contacts for which `counted` holds that act on one body (through
    /// `count`, zero again on return).
    pub fn most_on_one_body(&mut self, contacts: &[Contact], counted: impl Fn(usize) -> bool) -> usize {
        let bodies = |ci: usize| {
            let (a, b) = contacts[ci].bodies();
            std::iter::once(a).chain(b)
        };
        let mut most = 0;
        for ci in (0..contacts.len()).filter(|&ci| counted(ci)) {
            for body in bodies(ci) {
                self.count[body] += 1;
                most = most.max(self.count[body]);
            }
        }
        for ci in (0..contacts.len()).filter(|&ci| counted(ci)) {
            for body in bodies(ci) {
                self.count[body] = 0;
            }
        }
        most
    }
}
