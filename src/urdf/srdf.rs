//! SRDF `<disable_collisions link1 link2>` → excluded shape pairs (as Pinocchio's
//! `removeCollisionPairs`): every collision shape of link1 never meets any of link2's.
//! Links merged into one body keep their own shapes (`Urdf::link_shapes`), so a pair
//! excludes only the two links' shapes, not those of the links merged with them. A link
//! the model does not have is a warning, not an error (robots' SRDFs name links of other
//! variants of the robot); the rest of an SRDF (groups, group states, end effectors,
//! virtual joints) is not read.

use std::path::Path;

use super::caps::{check_attributes, check_size};
use super::Urdf;
use crate::model::{Error, Result};

/// What applying an SRDF did: the `<disable_collisions>` elements read and the shape pairs
/// excluded (the warnings go to `Urdf::warnings`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SrdfReport {
    pub disabled_links: usize,
    pub excluded_shape_pairs: usize,
}

fn err(msg: String) -> Error {
    Error::Urdf(msg)
}

/// The `(link1, link2, line)` of each `<disable_collisions>` of SRDF text.
fn disabled_pairs(srdf: &str) -> Result<Vec<(String, String, u32)>> {
    check_size(srdf.len(), "the SRDF text")?;
    check_attributes(srdf)?;
    let doc = roxmltree::Document::parse(srdf).map_err(|e| err(format!("SRDF: malformed XML: {e}")))?;
    let root = doc.root_element();
    if root.tag_name().name() != "robot" {
        return Err(err(format!("SRDF: the root element is <{}>, expected <robot>", root.tag_name().name())));
    }
    let mut pairs = Vec::new();
    for e in root.children().filter(|n| n.is_element() && n.tag_name().name() == "disable_collisions") {
        let line = doc.text_pos_at(e.range().start).row;
        let attr = |a: &str| e.attribute(a).ok_or_else(|| err(format!("SRDF <disable_collisions> at line {line}: missing attribute `{a}`")));
        pairs.push((attr("link1")?.to_string(), attr("link2")?.to_string(), line));
    }
    Ok(pairs)
}

impl Urdf {
    /// Excludes the collision shape pairs an SRDF's `<disable_collisions link1 link2>`
    /// name (see the module doc). Malformed SRDF text, an element without `link1` or
    /// `link2`, or text beyond the URDF caps is an error and changes nothing; a link the
    /// model does not have adds a warning to [`Urdf::warnings`].
    pub fn apply_srdf(&mut self, srdf: &str) -> Result<SrdfReport> {
        let pairs = disabled_pairs(srdf)?;
        let mut report = SrdfReport::default();
        let mut unknown: Vec<String> = Vec::new();
        for (l1, l2, line) in &pairs {
            let missing: Vec<&String> = [l1, l2].into_iter().filter(|l| !self.frames.contains_key(*l) && !self.link_shapes.contains_key(*l)).collect();
            if !missing.is_empty() {
                let names: Vec<String> = missing.iter().map(|l| format!("`{l}`")).collect();
                unknown.push(format!("{} (line {line})", names.join(" and ")));
                continue;
            }
            report.disabled_links += 1;
            let none = Vec::new();
            let (s1, s2) = (self.link_shapes.get(l1).unwrap_or(&none), self.link_shapes.get(l2).unwrap_or(&none));
            for &a in s1 {
                for &b in s2 {
                    if a != b && self.builder.collision.excluded.binary_search(&(a.min(b), a.max(b))).is_err() {
                        self.builder.exclude_shape_pair(a, b)?;
                        report.excluded_shape_pairs += 1;
                    }
                }
            }
        }
        if !unknown.is_empty() {
            self.warnings.push(format!("SRDF <disable_collisions> naming link(s) not in the model, ignored: {}", unknown.join(", ")));
        }
        Ok(report)
    }

    /// Reads an SRDF file and applies it ([`Urdf::apply_srdf`]).
    pub fn apply_srdf_file(&mut self, path: impl AsRef<Path>) -> Result<SrdfReport> {
        self.apply_srdf(&super::read_text(path.as_ref())?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::urdf::UrdfOptions;

    /// A chain base → a → b → c of revolutes, `a_cap` fixed on `a` (merged into its body),
    /// one sphere on each link.
    const CHAIN: &str = r#"<robot name="chain">
      <link name="base"><collision><geometry><sphere radius="0.1"/></geometry></collision></link>
      <link name="a"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01"/></inertial>
        <collision><geometry><sphere radius="0.1"/></geometry></collision></link>
      <link name="a_cap"><collision><origin xyz="0 0 0.2"/><geometry><sphere radius="0.05"/></geometry></collision></link>
      <link name="b"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01"/></inertial>
        <collision><geometry><sphere radius="0.1"/></geometry></collision></link>
      <link name="c"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01"/></inertial>
        <collision><geometry><sphere radius="0.1"/></geometry></collision></link>
      <joint name="ja" type="revolute"><parent link="base"/><child link="a"/><origin xyz="0 0 1"/><axis xyz="1 0 0"/></joint>
      <joint name="jcap" type="fixed"><parent link="a"/><child link="a_cap"/></joint>
      <joint name="jb" type="revolute"><parent link="a"/><child link="b"/><origin xyz="0 0 1"/><axis xyz="1 0 0"/></joint>
      <joint name="jc" type="revolute"><parent link="b"/><child link="c"/><origin xyz="0 0 1"/><axis xyz="1 0 0"/></joint>
    </robot>"#;

    fn chain() -> Urdf {
        Urdf::from_str_with(CHAIN, &UrdfOptions { collision: true, self_collision: true, ..UrdfOptions::default() }).unwrap()
    }

    #[test]
    fn disabled_links_exclude_exactly_their_shapes() {
        let mut u = chain();
        let shape = |u: &Urdf, link: &str| u.link_shapes[link][0];
        let (a, cap, c) = (shape(&u, "a"), shape(&u, "a_cap"), shape(&u, "c"));
        assert_eq!(u.body_of("a"), u.body_of("a_cap"), "a_cap is merged into a's body");
        let before = u.builder.collision.excluded.clone();
        let srdf = r#"<?xml version="1.0"?>
          <robot name="chain">
            <group name="arm"><joint name="ja"/></group>
            <disable_collisions link1="a_cap" link2="c" reason="Never"/>
            <disable_collisions link1="c" link2="a_cap" reason="Never"/>
            <disable_collisions link1="b" link2="gripper" reason="Adjacent"/>
          </robot>"#;
        let report = u.apply_srdf(srdf).unwrap();
        assert_eq!(report, SrdfReport { disabled_links: 2, excluded_shape_pairs: 1 });
        let added: Vec<_> = u.builder.collision.excluded.iter().filter(|p| !before.contains(p)).copied().collect();
        assert_eq!(added, vec![(cap.min(c), cap.max(c))], "only a_cap's shape against c's, not a's");
        let model = crate::model::Model::new(&u.builder).unwrap();
        assert!(!model.collision.may_collide(cap, c, |_, _| false) && model.collision.may_collide(a, c, |_, _| false));
        let w = u.warnings.last().unwrap();
        assert!(w.contains("`gripper` (line 6)") && w.contains("not in the model"), "{w}");
    }

    #[test]
    fn bad_srdf_is_an_error_that_changes_nothing() {
        let mut u = chain();
        let (excluded, warnings) = (u.builder.collision.excluded.clone(), u.warnings.clone());
        let bad = |u: &mut Urdf, text: &str| u.apply_srdf(text).unwrap_err().to_string();
        assert!(bad(&mut u, "<robot><disable_collisions link1=\"a\"").contains("SRDF: malformed XML"));
        let e = bad(&mut u, "<robot>\n<disable_collisions link1=\"a_cap\" link2=\"c\"/>\n<disable_collisions link1=\"a\"/></robot>");
        assert!(e.contains("SRDF <disable_collisions> at line 3: missing attribute `link2`"), "{e}");
        assert!(bad(&mut u, "<srdf/>").contains("the root element is <srdf>, expected <robot>"));
        assert!(bad(&mut u, "/no/such/file.srdf").contains("malformed XML"));
        assert!(u.apply_srdf_file("/no/such/file.srdf").unwrap_err().to_string().contains("cannot read `/no/such/file.srdf`"));
        assert_eq!((u.builder.collision.excluded.clone(), u.warnings.clone()), (excluded, warnings));
    }
}
