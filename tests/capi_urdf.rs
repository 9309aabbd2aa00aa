//! `maxdyn_builder_from_urdf`: loads through the C ABI, fails with MAXDYN_STATUS_URDF and
//! a message naming the element, writes `*out` only on success, leaks nothing.

use std::ffi::{CStr, CString};
use std::ptr;

use maxdyn::capi::*;

fn last_error() -> String {
    unsafe { CStr::from_ptr(maxdyn_last_error_message()) }.to_string_lossy().into_owned()
}

fn model_path(name: &str) -> CString {
    CString::new(format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn from_urdf_through_the_c_abi() {
    let live = maxdyn_debug_live_objects();
    unsafe {
        // the paper's quadruped: 13 bodies, 12 revolute + 1 floating joint
        let mut b: *mut maxdyn_builder = ptr::null_mut();
        assert_eq!(maxdyn_builder_from_urdf(model_path("a1_cd_paper_quadruped_simple.urdf").as_ptr(), 0, &mut b), maxdyn_status::MAXDYN_STATUS_OK);
        let (mut nb, mut nj) = (0, 0);
        assert_eq!(maxdyn_builder_get_body_count(b, &mut nb), maxdyn_status::MAXDYN_STATUS_OK);
        assert_eq!(maxdyn_builder_get_joint_count(b, &mut nj), maxdyn_status::MAXDYN_STATUS_OK);
        assert_eq!((nb, nj), (13, 13));
        maxdyn_builder_free(b);

        // floating = 1 drops the massless base's floating joint
        let mut b: *mut maxdyn_builder = ptr::null_mut();
        assert_eq!(maxdyn_builder_from_urdf(model_path("a1_cd_paper_quadruped_simple.urdf").as_ptr(), 1, &mut b), maxdyn_status::MAXDYN_STATUS_OK);
        assert_eq!(maxdyn_builder_get_joint_count(b, &mut nj), maxdyn_status::MAXDYN_STATUS_OK);
        assert_eq!(nj, 12);

        // simulate the double pendulum from C
        let mut dp: *mut maxdyn_builder = ptr::null_mut();
        assert_eq!(maxdyn_builder_from_urdf(model_path("doublependulum_cd.urdf").as_ptr(), 0, &mut dp), maxdyn_status::MAXDYN_STATUS_OK);
        let mut m: *mut maxdyn_model = ptr::null_mut();
        assert_eq!(maxdyn_model_new(dp, &mut m), maxdyn_status::MAXDYN_STATUS_OK);
        let mut s: *mut maxdyn_sim = ptr::null_mut();
        assert_eq!(maxdyn_sim_new(m, 0.01, &mut s), maxdyn_status::MAXDYN_STATUS_OK);
        let angle = [1.0];
        assert_eq!(maxdyn_sim_set_joint_position(s, 0, angle.as_ptr(), 1), maxdyn_status::MAXDYN_STATUS_OK);
        for _ in 0..200 {
            assert_eq!(maxdyn_sim_step(s), maxdyn_status::MAXDYN_STATUS_OK);
        }
        let mut v = 1.0;
        assert_eq!(maxdyn_sim_get_constraint_violation(s, &mut v), maxdyn_status::MAXDYN_STATUS_OK);
        assert!(v < 1e-9, "violation {v:e}");

        // failures leave *out untouched
        let sentinel = 0x10 as *mut maxdyn_builder;
        let mut out = sentinel;
        let missing = CString::new("/nonexistent/robot.urdf").unwrap();
        assert_eq!(maxdyn_builder_from_urdf(missing.as_ptr(), 0, &mut out), maxdyn_status::MAXDYN_STATUS_URDF);
        assert_eq!(out, sentinel);
        assert!(last_error().starts_with("maxdyn_builder_from_urdf: URDF: cannot read"), "{}", last_error());

        let dir = std::env::temp_dir().join(format!("maxdyn_capi_urdf_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bad = dir.join("bad.urdf");
        std::fs::write(&bad, r#"<robot name="r"><link name="w"/><link name="a"/><joint name="j" type="screw"><parent link="w"/><child link="a"/></joint></robot>"#).unwrap();
        let bad_c = CString::new(bad.to_str().unwrap()).unwrap();
        assert_eq!(maxdyn_builder_from_urdf(bad_c.as_ptr(), 0, &mut out), maxdyn_status::MAXDYN_STATUS_URDF);
        assert!(last_error().contains("joint `j`: unsupported joint type `screw`"), "{}", last_error());
        std::fs::remove_dir_all(&dir).ok();

        assert_eq!(maxdyn_builder_from_urdf(ptr::null(), 0, &mut out), maxdyn_status::MAXDYN_STATUS_NULL_POINTER);
        assert!(last_error().contains("`path`"), "{}", last_error());
        assert_eq!(maxdyn_builder_from_urdf(model_path("doublependulum_cd.urdf").as_ptr(), 2, &mut out), maxdyn_status::MAXDYN_STATUS_INVALID_ARGUMENT);
        assert!(last_error().contains("`floating`"), "{}", last_error());
        assert_eq!(maxdyn_builder_from_urdf(model_path("doublependulum_cd.urdf").as_ptr(), 0, ptr::null_mut()), maxdyn_status::MAXDYN_STATUS_NULL_POINTER);
        assert_eq!(out, sentinel);

        maxdyn_sim_free(s);
        maxdyn_model_free(m);
        maxdyn_builder_free(dp);
        maxdyn_builder_free(b);
    }
    assert_eq!(maxdyn_debug_live_objects(), live, "leaked objects");
}
