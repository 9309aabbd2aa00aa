//! Shape contact reports through the C ABI: a box resting on a world plane, read in bulk.

use maxdyn::capi::*;
use std::ptr::{null, null_mut};

#[test]
fn shape_contacts_from_c() {
    unsafe {
        let mut b = null_mut();
        assert_eq!(maxdyn_builder_new(&mut b), maxdyn_status::MAXDYN_STATUS_OK);
        let (m, h) = (2.0, [0.2, 0.1, 0.05]);
        let i = |a: f64, c: f64| m * (a * a + c * c) / 3.0;
        let inertia = [i(h[1], h[2]), 0.0, 0.0, 0.0, i(h[0], h[2]), 0.0, 0.0, 0.0, i(h[0], h[1])];
        let mut body = -1;
        assert_eq!(maxdyn_builder_add_body(b, m, inertia.as_ptr(), &mut body), maxdyn_status::MAXDYN_STATUS_OK);
        assert_eq!(maxdyn_builder_set_body_pose(b, body, [0.0, 0.0, 0.05].as_ptr(), [1.0, 0.0, 0.0, 0.0].as_ptr()), maxdyn_status::MAXDYN_STATUS_OK);
        let pose = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0];
        let (mut shape, mut floor) = (-1, -1);
        assert_eq!(maxdyn_builder_add_shape(b, body, maxdyn_shape_type::MAXDYN_SHAPE_BOX as i32, pose.as_ptr(), h.as_ptr(), 3, &mut shape), maxdyn_status::MAXDYN_STATUS_OK);
        assert_eq!(maxdyn_builder_add_shape(b, MAXDYN_WORLD, maxdyn_shape_type::MAXDYN_SHAPE_PLANE as i32, pose.as_ptr(), null(), 0, &mut floor), maxdyn_status::MAXDYN_STATUS_OK);
        let mut model = null_mut();
        assert_eq!(maxdyn_model_new(b, &mut model), maxdyn_status::MAXDYN_STATUS_OK);
        let mut sim = null_mut();
        assert_eq!(maxdyn_sim_new(model, 0.01, &mut sim), maxdyn_status::MAXDYN_STATUS_OK);
        let mut count = -1;
        assert_eq!(maxdyn_sim_get_shape_contact_count(sim, &mut count), maxdyn_status::MAXDYN_STATUS_OK);
        assert_eq!(count, 0, "no contacts before the first step");
        for _ in 0..10 {
            assert_eq!(maxdyn_sim_step(sim), maxdyn_status::MAXDYN_STATUS_OK);
        }
        assert_eq!(maxdyn_sim_get_shape_contact_count(sim, &mut count), maxdyn_status::MAXDYN_STATUS_OK);
        assert_eq!(count, 4);
        let mut records = [maxdyn_shape_contact::default(); 6];
        let mut written = 99;
        // too little room: refused, nothing written
        assert_eq!(maxdyn_sim_get_shape_contacts(sim, records.as_mut_ptr(), 3, &mut written), maxdyn_status::MAXDYN_STATUS_WRONG_LENGTH);
        assert_eq!((written, records[0]), (99, maxdyn_shape_contact::default()));
        assert_eq!(maxdyn_sim_get_shape_contacts(sim, null_mut(), 6, &mut written), maxdyn_status::MAXDYN_STATUS_NULL_POINTER);
        assert_eq!(maxdyn_sim_get_shape_contacts(sim, records.as_mut_ptr(), 6, null_mut()), maxdyn_status::MAXDYN_STATUS_NULL_POINTER);
        assert_eq!(maxdyn_sim_get_shape_contacts(sim, records.as_mut_ptr(), 6, &mut written), maxdyn_status::MAXDYN_STATUS_OK);
        assert_eq!(written, 4);
        let total: f64 = records[..4].iter().map(|r| r.normal_force).sum();
        assert!((total - m * 9.81).abs() < 1e-9, "{total}");
        for r in &records[..4] {
            assert_eq!((r.shape_a, r.shape_b, r.body_a, r.body_b), (shape, floor, body, MAXDYN_WORLD));
            assert_eq!(r.normal, [0.0, 0.0, 1.0]);
            // the corners of the box's lower face
            assert!((r.point[0].abs() - h[0]).abs() < 1e-9 && (r.point[1].abs() - h[1]).abs() < 1e-9 && r.point[2].abs() < 1e-9, "{:?}", r.point);
        }
        maxdyn_sim_free(sim);
        maxdyn_model_free(model);
        maxdyn_builder_free(b);
    }
}
