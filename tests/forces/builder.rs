//! Builder setters for force elements: full validation before any change, replacement
//! semantics, and the damper couplings in the compiled sparsity pattern.

use maxdyn::*;

fn ja() -> Inertia {
    Inertia::diagonal(0.1, 0.2, 0.3).unwrap()
}

fn two_links() -> (Builder, usize, usize, usize) {
    let mut b = Builder::new();
    b.add_body(1.0, ja()).unwrap();
    b.add_body(1.0, ja()).unwrap();
    let j0 = b.add_joint(JointType::Revolute, Parent::World, 0, [0.0; 3], [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
    let j1 = b.add_joint(JointType::PlanarFree, 0, 1, [0.0; 3], [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
    let jf = b.add_joint(JointType::Fixed, 0, 1, [0.0; 3], [0.0; 3], [1.0, 0.0, 0.0]).unwrap();
    (b, j0, j1, jf)
}

#[test]
fn joint_spring_and_damper_setters_validate_everything_first() {
    let (mut b, j0, j1, jf) = two_links();
    b.set_joint_spring(j1, &[1.0, 2.0, 3.0, 4.0, 5.0], &[0.0, 0.1, 0.2, 0.3, 0.4]).unwrap();
    let before = b.forces().clone();
    let errors = [
        b.set_joint_spring(j1, &[1.0, 2.0], &[0.0, 0.0]).unwrap_err(),
        b.set_joint_spring(j1, &[1.0; 5], &[0.0; 4]).unwrap_err(),
        b.set_joint_spring(j1, &[1.0, 1.0, -1.0, 1.0, 1.0], &[0.0; 5]).unwrap_err(),
        b.set_joint_spring(j1, &[1.0, 1.0, f64::NAN, 1.0, 1.0], &[0.0; 5]).unwrap_err(),
        b.set_joint_spring(j1, &[1.0; 5], &[0.0, f64::INFINITY, 0.0, 0.0, 0.0]).unwrap_err(),
        b.set_joint_spring(jf, &[], &[]).unwrap_err(),
        b.set_joint_spring(9, &[1.0], &[0.0]).unwrap_err(),
        b.set_joint_damper(j0, &[-0.1]).unwrap_err(),
        b.set_joint_damper(j0, &[0.1, 0.1]).unwrap_err(),
        b.set_joint_damper(j0, &[f64::NAN]).unwrap_err(),
        b.set_joint_damper(jf, &[]).unwrap_err(),
    ];
    assert!(matches!(errors[0], Error::WrongLength { name: "stiffness", got: 2, expected: 5 }));
    assert!(matches!(errors[1], Error::WrongLength { name: "rest", got: 4, expected: 5 }));
    assert!(matches!(errors[2], Error::InvalidArgument("stiffness", _)));
    assert!(matches!(errors[3], Error::NonFinite("stiffness")));
    assert!(matches!(errors[4], Error::NonFinite("rest")));
    assert!(matches!(errors[5], Error::InvalidArgument("joint", _)));
    assert!(matches!(errors[6], Error::UnknownJoint(9)));
    assert!(matches!(errors[7], Error::InvalidArgument("damping", _)));
    assert!(matches!(errors[8], Error::WrongLength { name: "damping", .. }));
    assert!(matches!(errors[9], Error::NonFinite("damping")));
    assert!(matches!(errors[10], Error::InvalidArgument("joint", _)));
    assert_eq!(b.forces(), &before, "failed calls change nothing");
    // a second spring on the same joint replaces the first
    b.set_joint_spring(j1, &[9.0; 5], &[0.0; 5]).unwrap();
    assert_eq!(b.forces().joint_springs.len(), 1);
    assert_eq!(b.forces().joint_springs[0].stiffness[..5], [9.0; 5]);
    b.set_joint_damper(j0, &[0.3]).unwrap();
    b.set_joint_damper(j0, &[0.4]).unwrap();
    assert_eq!(b.forces().joint_dampers.len(), 1);
    assert_eq!(b.forces().joint_dampers[0].damping[0], 0.4);
}

#[test]
fn add_spring_validates_and_returns_consecutive_ids() {
    let (mut b, ..) = two_links();
    assert_eq!(b.add_spring(Parent::World, [0.0; 3], 0, [0.0; 3], 1.0, 0.0, 0.0).unwrap(), 0);
    assert_eq!(b.add_spring(0, [0.1, 0.0, 0.0], 1, [0.0; 3], 1.0, 0.5, 0.2).unwrap(), 1);
    let before = b.forces().clone();
    assert!(matches!(b.add_spring(0, [0.0; 3], 0, [0.0; 3], 1.0, 0.0, 0.0), Err(Error::InvalidArgument("body_b", _))));
    // body_b cannot be the world: its type is a body id
    assert!(matches!(b.add_spring(0, [0.0; 3], 2, [0.0; 3], 1.0, 0.0, 0.0), Err(Error::UnknownBody(2))));
    assert!(matches!(b.add_spring(5, [0.0; 3], 1, [0.0; 3], 1.0, 0.0, 0.0), Err(Error::UnknownBody(5))));
    assert!(matches!(b.add_spring(0, [f64::NAN, 0.0, 0.0], 1, [0.0; 3], 1.0, 0.0, 0.0), Err(Error::NonFinite("pa"))));
    assert!(matches!(b.add_spring(0, [0.0; 3], 1, [0.0; 3], -1.0, 0.0, 0.0), Err(Error::InvalidArgument("stiffness", _))));
    assert!(matches!(b.add_spring(0, [0.0; 3], 1, [0.0; 3], 1.0, -0.1, 0.0), Err(Error::InvalidArgument("damping", _))));
    assert!(matches!(b.add_spring(0, [0.0; 3], 1, [0.0; 3], 1.0, 0.0, -0.5), Err(Error::InvalidArgument("rest_length", _))));
    assert!(matches!(b.add_spring(0, [0.0; 3], 1, [0.0; 3], 1.0, 0.0, f64::NAN), Err(Error::NonFinite("rest_length"))));
    assert_eq!(b.forces(), &before);
}

#[test]
fn dampers_between_bodies_add_a_body_body_coupling_to_the_pattern() {
    let coupled = |f: &dyn Fn(&mut Builder, usize, usize)| {
        let mut b = Builder::new();
        b.add_body(1.0, ja()).unwrap();
        b.add_body(1.0, ja()).unwrap();
        let j0 = b.add_joint(JointType::Revolute, Parent::World, 0, [0.0; 3], [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
        let j1 = b.add_joint(JointType::Revolute, 0, 1, [0.0; 3], [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
        f(&mut b, j0, j1);
        let m = Model::new(&b).unwrap();
        m.symbolic.block_offset(m.body_node[0], m.body_node[1]).is_some()
    };
    assert!(!coupled(&|_, _, _| {}));
    assert!(!coupled(&|b, j0, j1| {
        b.set_joint_damper(j0, &[1.0]).unwrap(); // to the world: diagonal only
        b.set_joint_spring(j1, &[1.0], &[0.0]).unwrap(); // springs add no blocks
        b.add_spring(0, [0.0; 3], 1, [0.0; 3], 1.0, 0.0, 0.0).unwrap();
    }));
    assert!(coupled(&|b, _, j1| b.set_joint_damper(j1, &[1.0]).unwrap()));
    assert!(coupled(&|b, _, _| {
        b.add_spring(0, [0.0; 3], 1, [0.0; 3], 1.0, 0.2, 0.0).unwrap();
    }));
}
