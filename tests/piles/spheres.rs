use crate::scenes::twelve_spheres;

#[test]
fn twelve_sphere_pile_with_friction_steps_every_step() {
    for (spacing, shift, lift) in [(0.25, 0.12, 0.02), (0.2, 0.02, 0.0), (0.22, 0.1, 0.05),(0.24, 0.11, 0.03),(0.26, 0.12, 0.03)] {
        let mut sim = twelve_spheres(0.5, spacing, shift, lift);
        let mut fails = 0;
        let mut first = None;
        let (mut maxit, mut total) = (0, 0);
        for k in 0..300 {
            match sim.step() {
                Ok(st) => {maxit = maxit.max(st.iterations); total += st.iterations},
                Err(_) => { fails += 1; first.get_or_insert(k); }
            }
        }
        println!("{spacing} {shift} {lift}: fails {fails} first {first:?} maxit {maxit} total {total}");
    }
}
