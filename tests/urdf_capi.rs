//! The URDF loader from C: from a string, with options (merged or welded fixed links,
//! floating base), the load's warnings in a caller buffer (truncated, with the full
//! length), failures that name the argument and leave `*out` untouched, no leaks.

use std::ffi::{c_char, CString};
use std::ptr::null_mut;

use maxdyn::capi::maxdyn_status::*;
use maxdyn::capi::*;

#[path = "common/capi.rs"]
mod capi_helpers;
use capi_helpers::{expect, last_error, lock, ok};

fn fixture(name: &str) -> CString {
    CString::new(format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

unsafe fn bodies(b: *const maxdyn_builder) -> i32 {
    let mut n = -1;
    ok(maxdyn_builder_get_body_count(b, &mut n));
    n
}

/// A wheel with friction (not simulated) and a `<limit lower=upper=0>` (no limit): two warnings.
const WHEEL: &str = r#"<robot name="r"><link name="w"/>
  <link name="wheel"><inertial><mass value="2"/><inertia ixx="0.3" iyy="0.3" izz="0.5"/></inertial></link>
  <link name="cap"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1"/></inertial></link>
  <joint name="spin" type="revolute"><parent link="w"/><child link="wheel"/><axis xyz="0 0 1"/>
    <limit lower="0" upper="0"/><dynamics friction="0.05"/></joint>
  <joint name="bolt" type="fixed"><parent link="wheel"/><child link="cap"/><origin xyz="0 0 0.1"/></joint>
</robot>"#;

#[test]
fn from_string_and_with_options() {
    let l = lock();
    unsafe {
        let xml = CString::new(WHEEL).unwrap();
        let mut b = null_mut();
        ok(maxdyn_builder_from_urdf_string(xml.as_ptr(), 0, &mut b));
        assert_eq!(bodies(b), 1, "the cap is merged into the wheel by default");
        maxdyn_builder_free(b);
        // floating: the massless root `w` cannot be the free body (its joint moves)
        let sentinel = 0x10 as *mut maxdyn_builder;
        let mut out = sentinel;
        assert_eq!(maxdyn_builder_from_urdf_string(xml.as_ptr(), 1, &mut out), MAXDYN_STATUS_URDF);
        assert!(last_error().contains("root link `w` (floating base)"), "{}", last_error());
        assert_eq!(out, sentinel);

        // options: the A1 (unitree_ros) has 12 bodies merged, 18 welded (fixed base)
        let defaults = maxdyn_urdf_options_default();
        assert_eq!(defaults, maxdyn_urdf_options { floating: 0, merge_fixed: 1, joint_limits: 1, collision: 0, ground_plane: 0, self_collision: 0 });
        let a1 = fixture("a1_unitree_ros.urdf");
        for (merge_fixed, floating, expected) in [(1, 0, 12), (0, 0, 18), (1, 1, 13)] {
            let o = maxdyn_urdf_options { floating, merge_fixed, ..defaults };
            let mut len = usize::MAX;
            ok(maxdyn_builder_from_urdf_with(a1.as_ptr(), &o, &mut b, null_mut(), 0, &mut len));
            assert_eq!(bodies(b), expected, "merge_fixed {merge_fixed} floating {floating}");
            // the A1's joints have <dynamics friction> (not simulated): one warning each
            let rust = maxdyn::urdf::Urdf::from_file_with(a1.to_str().unwrap(), &maxdyn::urdf::UrdfOptions { floating: floating == 1, merge_fixed: merge_fixed == 1, ..Default::default() }).unwrap();
            assert_eq!(rust.warnings.len(), 12);
            assert_eq!(len, rust.warnings.join("\n").len());
            maxdyn_builder_free(b);
        }

        // warnings: two lines; a short buffer is truncated and NUL-terminated, the full length reported
        let o = maxdyn_urdf_options { merge_fixed: 0, ..maxdyn_urdf_options_default() };
        let mut buf = [0x55 as c_char; 512];
        let mut len = 0;
        ok(maxdyn_builder_from_urdf_string_with(xml.as_ptr(), &o, &mut b, buf.as_mut_ptr(), buf.len(), &mut len));
        assert_eq!(bodies(b), 2, "welded");
        maxdyn_builder_free(b);
        let text = std::ffi::CStr::from_ptr(buf.as_ptr()).to_str().unwrap().to_string();
        assert_eq!(text.len(), len);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text}");
        assert!(lines[0].contains("joint `spin`") && lines[0].contains("friction"), "{text}");
        assert!(lines[1].contains("joint `spin`: <limit lower=\"0\" upper=\"0\"> is read as no limit"), "{text}");
        let mut short = [0x55 as c_char; 8];
        let mut len2 = 0;
        ok(maxdyn_builder_from_urdf_string_with(xml.as_ptr(), &o, &mut b, short.as_mut_ptr(), short.len(), &mut len2));
        maxdyn_builder_free(b);
        assert_eq!(len2, len);
        assert_eq!(std::ffi::CStr::from_ptr(short.as_ptr()).to_bytes(), &text.as_bytes()[..7]);
    }
    assert_eq!(l.live(), 0, "leaked objects");
}

#[test]
fn failures_name_the_argument_and_leave_out_untouched() {
    let l = lock();
    unsafe {
        let sentinel = 0x10 as *mut maxdyn_builder;
        let mut out = sentinel;
        let xml = CString::new(WHEEL).unwrap();
        let o = maxdyn_urdf_options_default();
        expect(maxdyn_builder_from_urdf_string(std::ptr::null(), 0, &mut out), MAXDYN_STATUS_NULL_POINTER, "maxdyn_builder_from_urdf_string", "xml");
        expect(maxdyn_builder_from_urdf_string(xml.as_ptr(), 2, &mut out), MAXDYN_STATUS_INVALID_ARGUMENT, "maxdyn_builder_from_urdf_string", "floating");
        let bad = [0xffu8, 0];
        expect(maxdyn_builder_from_urdf_string(bad.as_ptr().cast(), 0, &mut out), MAXDYN_STATUS_INVALID_ARGUMENT, "maxdyn_builder_from_urdf_string", "xml");
        let broken = CString::new(r#"<robot name="r"><link name="w"/><link name="a"><inertial><mass value="1"/><inertia ixx="1" iyy="-1" izz="1"/></inertial></link><joint name="j" type="fixed"><parent link="w"/><child link="a"/></joint></robot>"#).unwrap();
        assert_eq!(maxdyn_builder_from_urdf_string(broken.as_ptr(), 0, &mut out), MAXDYN_STATUS_URDF);
        assert!(last_error().contains("link `a`: inertia has a negative principal moment"), "{}", last_error());
        expect(maxdyn_builder_from_urdf_string_with(xml.as_ptr(), std::ptr::null(), &mut out, null_mut(), 0, null_mut()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_builder_from_urdf_string_with", "options");
        let wrong = maxdyn_urdf_options { merge_fixed: 7, ..o };
        expect(maxdyn_builder_from_urdf_string_with(xml.as_ptr(), &wrong, &mut out, null_mut(), 0, null_mut()), MAXDYN_STATUS_INVALID_ARGUMENT, "maxdyn_builder_from_urdf_string_with", "options.merge_fixed");
        let wrong = maxdyn_urdf_options { joint_limits: -1, ..o };
        expect(maxdyn_builder_from_urdf_string_with(xml.as_ptr(), &wrong, &mut out, null_mut(), 0, null_mut()), MAXDYN_STATUS_INVALID_ARGUMENT, "maxdyn_builder_from_urdf_string_with", "options.joint_limits");
        expect(maxdyn_builder_from_urdf_string_with(xml.as_ptr(), &o, &mut out, null_mut(), 4, null_mut()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_builder_from_urdf_string_with", "warnings");
        expect(maxdyn_builder_from_urdf_with(std::ptr::null(), &o, &mut out, null_mut(), 0, null_mut()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_builder_from_urdf_with", "path");
        let missing = CString::new("/nonexistent/robot.urdf").unwrap();
        assert_eq!(maxdyn_builder_from_urdf_with(missing.as_ptr(), &o, &mut out, null_mut(), 0, null_mut()), MAXDYN_STATUS_URDF);
        assert!(last_error().starts_with("maxdyn_builder_from_urdf_with: URDF: cannot read"), "{}", last_error());
        expect(maxdyn_builder_from_urdf_with(fixture("doublependulum_cd.urdf").as_ptr(), &o, null_mut(), null_mut(), 0, null_mut()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_builder_from_urdf_with", "out");
        assert_eq!(out, sentinel);
    }
    assert_eq!(l.live(), 0, "leaked objects");
}
