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
        assert_eq!(
            defaults,
            maxdyn_urdf_options {
                floating: 0,
                merge_fixed: 1,
                joint_limits: 1,
                collision: 0,
                ground_plane: 0,
                self_collision: 0,
                bound_mass: 0.0,
                bound_inertia: 0.0,
                srdf_path: std::ptr::null(),
                srdf_string: std::ptr::null(),
                mesh_roots: std::ptr::null(),
                world_meshes_as_trimesh: 0,
            }
        );
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
        let wrong = maxdyn_urdf_options { world_meshes_as_trimesh: 2, ..o };
        expect(maxdyn_builder_from_urdf_string_with(xml.as_ptr(), &wrong, &mut out, null_mut(), 0, null_mut()), MAXDYN_STATUS_INVALID_ARGUMENT, "maxdyn_builder_from_urdf_string_with", "options.world_meshes_as_trimesh");
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

/// Loads `xml` as a string, expecting MAXDYN_STATUS_URDF with a message holding `says`;
/// `*out` is left untouched.
#[track_caller]
fn refused(xml: &str, says: &str) {
    let text = CString::new(xml).unwrap();
    let sentinel = 0x10 as *mut maxdyn_builder;
    let mut out = sentinel;
    let status = unsafe { maxdyn_builder_from_urdf_string(text.as_ptr(), 0, &mut out) };
    let msg = last_error();
    assert_eq!(status, MAXDYN_STATUS_URDF, "{msg}");
    assert!(msg.contains(says), "{msg:?} does not say {says:?}");
    assert_eq!(out, sentinel);
}

/// `<robot>` holding `body`, with one `<link>` of mass so that the rest may be tested.
fn robot(body: &str) -> String {
    format!("<robot name=\"r\">\n<link name=\"w\"/>\n{body}</robot>")
}

/// Issue 30 item 2: one element with 30 000 attributes took 1.2 s to parse, 100 000 took
/// 12.2 s and 300 000 193 s (the XML parser checks each attribute against the element's
/// earlier ones). An element with more than MAXDYN_URDF_MAX_ATTRIBUTES (64) is refused by
/// a linear pass before the parser, naming the element and its line; 64 load. Measured:
/// 100 000 attributes (1.5 MB) refused in 0.8 ms. Time per MB at 1, 4 and 16 MB:
/// `cargo bench --bench urdf_attributes`.
#[test]
fn an_element_with_100000_attributes_is_refused_before_the_parser() {
    let _l = lock();
    let attributes = |n: usize| (0..n).map(|k| format!(" a{k}=\"{k}\"")).collect::<String>();
    let huge = robot(&format!("<link name=\"l\"{}/>\n", attributes(100_000)));
    let t = std::time::Instant::now();
    refused(&huge, "element <link> at line 3 has more than 64 attributes");
    println!("100 000 attributes ({:.1} MB) refused in {:.1} ms", huge.len() as f64 / 1e6, t.elapsed().as_secs_f64() * 1e3);
    assert_eq!(MAXDYN_URDF_MAX_ATTRIBUTES, 64);
    // at the cap the element is read (the link's name is one of its 64)
    let at_cap = CString::new(robot(&format!("<link name=\"l\"{}/>\n", attributes(63)))).unwrap();
    let mut b = null_mut();
    unsafe {
        assert_eq!(maxdyn_builder_from_urdf_string(at_cap.as_ptr(), 0, &mut b), MAXDYN_STATUS_URDF, "two roots");
        assert!(last_error().contains("root"), "refused later, by the tree: {}", last_error());
    }
}

/// Issue 30 item 3: URDF files beyond 64 MB were refused, but a 200 MB string was read
/// (a 1e6-link chain took 590 s and 7.1 GB). Text beyond MAXDYN_URDF_MAX_BYTES is
/// refused from a string as from a file, before it is parsed; more than
/// MAXDYN_URDF_MAX_LINKS links or joints are refused naming the cap.
#[test]
fn urdf_text_beyond_the_caps_is_refused_naming_them() {
    let l = lock();
    assert_eq!(MAXDYN_URDF_MAX_BYTES, 64 << 20);
    // a comment makes the bytes: nothing else to parse
    let padding = "x".repeat(MAXDYN_URDF_MAX_BYTES as usize);
    refused(&robot(&format!("<!--{padding}-->")), "the URDF text is larger than 64 MB");
    let padded = CString::new(robot(&format!("<!--{padding}-->"))).unwrap();
    drop(padding);
    let mut out = null_mut();
    let o = maxdyn_urdf_options_default();
    unsafe {
        assert_eq!(maxdyn_builder_from_urdf_string_with(padded.as_ptr(), &o, &mut out, null_mut(), 0, null_mut()), MAXDYN_STATUS_URDF);
    }
    assert!(last_error().contains("larger than 64 MB"), "{}", last_error());
    drop(padded);

    let links = |n: usize| (0..n).map(|k| format!("<link name=\"l{k}\"/>\n")).collect::<String>();
    refused(&robot(&links(MAXDYN_URDF_MAX_LINKS)), "more than 10000 <link> elements");
    let joints = (0..=MAXDYN_URDF_MAX_LINKS).map(|k| format!("<joint name=\"j{k}\" type=\"fixed\"><parent link=\"w\"/><child link=\"w\"/></joint>\n")).collect::<String>();
    refused(&robot(&joints), "more than 10000 <joint> elements");
    // a chain of exactly the cap loads (measured 0.18 s)
    let chain: String = (1..MAXDYN_URDF_MAX_LINKS)
        .map(|k| {
            let parent = if k == 1 { "w".to_string() } else { format!("l{}", k - 1) };
            format!("<link name=\"l{k}\"><inertial><mass value=\"1\"/><inertia ixx=\"0.01\" iyy=\"0.01\" izz=\"0.01\"/></inertial></link>\n<joint name=\"j{k}\" type=\"revolute\"><parent link=\"{parent}\"/><child link=\"l{k}\"/><origin xyz=\"0 0 -0.1\"/></joint>\n")
        })
        .collect();
    let chain = CString::new(robot(&chain)).unwrap();
    let t = std::time::Instant::now();
    let mut b = null_mut();
    unsafe {
        ok(maxdyn_builder_from_urdf_string(chain.as_ptr(), 0, &mut b));
        println!("a chain of {} links loaded in {:.2} s", MAXDYN_URDF_MAX_LINKS, t.elapsed().as_secs_f64());
        assert_eq!(bodies(b), MAXDYN_URDF_MAX_LINKS as i32 - 1);
        maxdyn_builder_free(b);
    }
    assert_eq!(l.live(), 0);
}

/// Issue 30 item 8: a link with an empty name was accepted. An empty or blank `name` of a
/// `<link>`, `<joint>` or `<loop_joint>` is refused naming the element and its line, as
/// other URDF loaders refuse it.
#[test]
fn empty_link_and_joint_names_are_refused_naming_the_element() {
    let _l = lock();
    let mass = "<inertial><mass value=\"1\"/><inertia ixx=\"0.1\" iyy=\"0.1\" izz=\"0.1\"/></inertial>";
    refused(&robot(&format!("<link name=\"\">{mass}</link>\n")), "<link> at line 3: empty `name`");
    refused(&robot(&format!("<link name=\"  \">{mass}</link>\n")), "<link> at line 3: empty `name`");
    refused(&robot(&format!("<link name=\"a\">{mass}</link>\n<joint name=\"\" type=\"revolute\"><parent link=\"w\"/><child link=\"a\"/></joint>\n")), "<joint> at line 4: empty `name`");
    refused(
        &robot(&format!("<link name=\"a\">{mass}</link>\n<loop_joint name=\"\" type=\"revolute\"><link1 link=\"w\"/><link2 link=\"a\"/></loop_joint>\n")),
        "<loop_joint> at line 4: empty `name`",
    );
    // named, the same robot loads
    let named = CString::new(robot(&format!("<link name=\"a\">{mass}</link>\n<joint name=\"j\" type=\"revolute\"><parent link=\"w\"/><child link=\"a\"/></joint>\n"))).unwrap();
    let mut b = null_mut();
    unsafe {
        ok(maxdyn_builder_from_urdf_string(named.as_ptr(), 0, &mut b));
        maxdyn_builder_free(b);
    }
}

/// Two spheres on each of two bodies jointed to a third, self-collision on.
const TRIO: &str = r#"<robot name="trio"><link name="w"/>
  <link name="a"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1"/></inertial>
    <collision><geometry><sphere radius="0.1"/></geometry></collision></link>
  <link name="b"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1"/></inertial>
    <collision><geometry><sphere radius="0.1"/></geometry></collision></link>
  <link name="c"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1"/></inertial>
    <collision><geometry><sphere radius="0.1"/></geometry></collision></link>
  <joint name="ja" type="revolute"><parent link="w"/><child link="a"/><origin xyz="0 0 1"/></joint>
  <joint name="jb" type="revolute"><parent link="a"/><child link="b"/><origin xyz="0 0 1"/></joint>
  <joint name="jc" type="revolute"><parent link="b"/><child link="c"/><origin xyz="0 0 1"/></joint>
</robot>"#;

/// Whether shapes 0 (link a) and 2 (link c) may collide in the model of `b`.
unsafe fn a_meets_c(b: *const maxdyn_builder) -> i32 {
    let mut m = null_mut();
    ok(maxdyn_model_new(b, &mut m));
    let mut may = -1;
    ok(maxdyn_model_get_shapes_may_collide(m, 0, 2, &mut may));
    maxdyn_model_free(m);
    may
}

/// SRDF from C: `srdf_string` or `srdf_path` in the options excludes the pairs of
/// `<disable_collisions>`; an unknown link is a warning; a bad SRDF or both fields set
/// fails and leaves `*out` untouched.
#[test]
fn srdf_in_the_options_excludes_its_pairs() {
    let l = lock();
    unsafe {
        let xml = CString::new(TRIO).unwrap();
        let o = maxdyn_urdf_options { collision: 1, self_collision: 1, ..maxdyn_urdf_options_default() };
        let mut b = null_mut();
        ok(maxdyn_builder_from_urdf_string_with(xml.as_ptr(), &o, &mut b, null_mut(), 0, null_mut()));
        assert_eq!(a_meets_c(b), 1, "a and c are not jointed");
        maxdyn_builder_free(b);
        let srdf = CString::new(r#"<robot name="trio"><disable_collisions link1="c" link2="a" reason="Never"/><disable_collisions link1="a" link2="hand"/></robot>"#).unwrap();
        let with = maxdyn_urdf_options { srdf_string: srdf.as_ptr(), ..o };
        let (mut text, mut len) = ([0 as c_char; 512], 0usize);
        ok(maxdyn_builder_from_urdf_string_with(xml.as_ptr(), &with, &mut b, text.as_mut_ptr(), text.len(), &mut len));
        assert_eq!(a_meets_c(b), 0, "excluded by the SRDF");
        let warnings = std::ffi::CStr::from_ptr(text.as_ptr()).to_string_lossy().into_owned();
        assert!(warnings.contains("SRDF <disable_collisions> naming link(s) not in the model, ignored: `hand` (line 1)"), "{warnings}");
        maxdyn_builder_free(b);
        // the same from a file
        let path = std::env::temp_dir().join(format!("maxdyn-trio-{}.srdf", std::process::id()));
        std::fs::write(&path, srdf.to_bytes()).unwrap();
        let cpath = CString::new(path.to_str().unwrap()).unwrap();
        let from_file = maxdyn_urdf_options { srdf_path: cpath.as_ptr(), ..o };
        ok(maxdyn_builder_from_urdf_string_with(xml.as_ptr(), &from_file, &mut b, null_mut(), 0, null_mut()));
        assert_eq!(a_meets_c(b), 0);
        maxdyn_builder_free(b);
        std::fs::remove_file(&path).unwrap();

        let sentinel = 0x10 as *mut maxdyn_builder;
        let mut out = sentinel;
        let both = maxdyn_urdf_options { srdf_path: cpath.as_ptr(), ..with };
        expect(maxdyn_builder_from_urdf_string_with(xml.as_ptr(), &both, &mut out, null_mut(), 0, null_mut()), MAXDYN_STATUS_INVALID_ARGUMENT, "maxdyn_builder_from_urdf_string_with", "options.srdf_path");
        assert_eq!(maxdyn_builder_from_urdf_string_with(xml.as_ptr(), &from_file, &mut out, null_mut(), 0, null_mut()), MAXDYN_STATUS_URDF);
        assert!(last_error().contains("cannot read") && last_error().contains("maxdyn-trio-"), "{}", last_error());
        let broken = CString::new("<robot><disable_collisions link1=\"a\"/></robot>").unwrap();
        let bad = maxdyn_urdf_options { srdf_string: broken.as_ptr(), ..o };
        assert_eq!(maxdyn_builder_from_urdf_string_with(xml.as_ptr(), &bad, &mut out, null_mut(), 0, null_mut()), MAXDYN_STATUS_URDF);
        assert!(last_error().contains("SRDF <disable_collisions> at line 1: missing attribute `link2`"), "{}", last_error());
        assert_eq!(out, sentinel);
    }
    assert_eq!(l.live(), 0, "leaked objects");
}

/// The bound options from C: a link with a negative principal moment loads with
/// `bound_inertia`, warning naming it; a negative or NaN bound is refused naming it.
#[test]
fn bound_options_raise_inertias_and_refuse_bad_bounds() {
    let l = lock();
    unsafe {
        let broken = CString::new(r#"<robot name="r"><link name="w"/><link name="a"><inertial><mass value="1"/><inertia ixx="1" iyy="-1e-8" izz="1"/></inertial></link><joint name="j" type="revolute"><parent link="w"/><child link="a"/></joint></robot>"#).unwrap();
        let sentinel = 0x10 as *mut maxdyn_builder;
        let mut out = sentinel;
        let o = maxdyn_urdf_options_default();
        assert_eq!(maxdyn_builder_from_urdf_string_with(broken.as_ptr(), &o, &mut out, null_mut(), 0, null_mut()), MAXDYN_STATUS_URDF);
        for (mass, inertia, arg) in [(-1.0, 0.0, "options.bound_mass"), (0.0, f64::NAN, "options.bound_inertia"), (f64::INFINITY, 0.0, "options.bound_mass")] {
            let wrong = maxdyn_urdf_options { bound_mass: mass, bound_inertia: inertia, ..o };
            expect(maxdyn_builder_from_urdf_string_with(broken.as_ptr(), &wrong, &mut out, null_mut(), 0, null_mut()), MAXDYN_STATUS_INVALID_ARGUMENT, "maxdyn_builder_from_urdf_string_with", arg);
        }
        assert_eq!(out, sentinel);
        let bounded = maxdyn_urdf_options { bound_inertia: 1e-3, ..o };
        let (mut text, mut len) = ([0 as c_char; 512], 0usize);
        ok(maxdyn_builder_from_urdf_string_with(broken.as_ptr(), &bounded, &mut out, text.as_mut_ptr(), text.len(), &mut len));
        let warnings = std::ffi::CStr::from_ptr(text.as_ptr()).to_string_lossy().into_owned();
        assert!(warnings.contains("link `a`: principal moment(s) -1.000e-8 kg·m² raised to 1e-3 (bound_inertia)"), "{warnings}");
        let (mut inertia, mut mass, mut m) = ([0.0; 9], 0.0, null_mut());
        ok(maxdyn_model_new(out, &mut m));
        ok(maxdyn_model_get_body_mass(m, 0, &mut mass));
        ok(maxdyn_model_get_body_inertia(m, 0, inertia.as_mut_ptr()));
        assert_eq!((mass, inertia[0], inertia[4], inertia[8]), (1.0, 1.0, 1e-3, 1.0));
        maxdyn_model_free(m);
        maxdyn_builder_free(out);
    }
    assert_eq!(l.live(), 0, "leaked objects");
}
