//! MuJoCo through the shim benches/peer/mujoco_shim.c, loaded at run time with dlopen so
//! that building the benchmark needs neither MuJoCo nor the venv.

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::path::Path;
use std::rc::Rc;

/// The shim's functions (names `peer_*` in mujoco_shim.c).
struct Api {
    version: unsafe extern "C" fn() -> *const c_char,
    load: unsafe extern "C" fn(*const c_char, *mut c_char, c_int) -> *mut c_void,
    free: unsafe extern "C" fn(*mut c_void),
    set_elliptic_cone: unsafe extern "C" fn(*mut c_void, c_int),
    set_contact_timeconst: unsafe extern "C" fn(*mut c_void, f64),
    reset: unsafe extern "C" fn(*mut c_void),
    forward: unsafe extern "C" fn(*mut c_void),
    kinematics: unsafe extern "C" fn(*mut c_void),
    collision: unsafe extern "C" fn(*mut c_void) -> c_int,
    step: unsafe extern "C" fn(*mut c_void),
    timestep: unsafe extern "C" fn(*const c_void) -> f64,
    time: unsafe extern "C" fn(*const c_void) -> f64,
    nbody: unsafe extern "C" fn(*const c_void) -> c_int,
    nq: unsafe extern "C" fn(*const c_void) -> c_int,
    qpos: unsafe extern "C" fn(*mut c_void) -> *mut f64,
    qvel: unsafe extern "C" fn(*mut c_void) -> *mut f64,
    ctrl: unsafe extern "C" fn(*mut c_void) -> *mut f64,
    xipos: unsafe extern "C" fn(*const c_void) -> *const f64,
    xquat: unsafe extern "C" fn(*const c_void) -> *const f64,
    body: unsafe extern "C" fn(*const c_void, *const c_char) -> c_int,
    actuator: unsafe extern "C" fn(*const c_void, *const c_char) -> c_int,
    joint_qpos: unsafe extern "C" fn(*const c_void, *const c_char) -> c_int,
    joint_dof: unsafe extern "C" fn(*const c_void, *const c_char) -> c_int,
    body_inertia: unsafe extern "C" fn(*const c_void, c_int, *mut f64),
    min_contact_dist: unsafe extern "C" fn(*const c_void) -> f64,
    solver_iterations: unsafe extern "C" fn(*const c_void) -> c_int,
    ngeom: unsafe extern "C" fn(*const c_void) -> c_int,
    lowest_geom_z: unsafe extern "C" fn(*const c_void) -> f64,
    set_margin: unsafe extern "C" fn(*mut c_void, f64),
    contact_pairs: unsafe extern "C" fn(*const c_void) -> c_int,
    ncon: unsafe extern "C" fn(*const c_void) -> c_int,
    set_integrator: unsafe extern "C" fn(*mut c_void, c_int),
    set_timestep: unsafe extern "C" fn(*mut c_void, f64),
    nv: unsafe extern "C" fn(*const c_void) -> c_int,
}

/// The loaded shim.
#[derive(Clone)]
pub struct Mujoco(Rc<Api>);

unsafe fn symbol<T: Copy>(lib: *mut c_void, name: &str) -> Result<T, String> {
    let c = CString::new(name).unwrap();
    let p = libc::dlsym(lib, c.as_ptr());
    if p.is_null() {
        return Err(format!("symbol {name} missing from the shim"));
    }
    Ok(std::mem::transmute_copy::<*mut c_void, T>(&p))
}

impl Mujoco {
    pub fn open(shim: &Path) -> Result<Mujoco, String> {
        let path = CString::new(shim.to_string_lossy().as_bytes()).unwrap();
        // SAFETY: dlopen/dlsym with valid C strings; each symbol's type is the one
        // declared in mujoco_shim.c.
        unsafe {
            let lib = libc::dlopen(path.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL);
            if lib.is_null() {
                return Err(CStr::from_ptr(libc::dlerror()).to_string_lossy().into_owned());
            }
            Ok(Mujoco(Rc::new(Api {
                version: symbol(lib, "peer_version")?,
                load: symbol(lib, "peer_load")?,
                free: symbol(lib, "peer_free")?,
                set_elliptic_cone: symbol(lib, "peer_set_elliptic_cone")?,
                set_contact_timeconst: symbol(lib, "peer_set_contact_timeconst")?,
                reset: symbol(lib, "peer_reset")?,
                forward: symbol(lib, "peer_forward")?,
                kinematics: symbol(lib, "peer_kinematics")?,
                collision: symbol(lib, "peer_collision")?,
                step: symbol(lib, "peer_step")?,
                timestep: symbol(lib, "peer_timestep")?,
                time: symbol(lib, "peer_time")?,
                nbody: symbol(lib, "peer_nbody")?,
                nq: symbol(lib, "peer_nq")?,
                qpos: symbol(lib, "peer_qpos")?,
                qvel: symbol(lib, "peer_qvel")?,
                ctrl: symbol(lib, "peer_ctrl")?,
                xipos: symbol(lib, "peer_xipos")?,
                xquat: symbol(lib, "peer_xquat")?,
                body: symbol(lib, "peer_body")?,
                actuator: symbol(lib, "peer_actuator")?,
                joint_qpos: symbol(lib, "peer_joint_qpos")?,
                joint_dof: symbol(lib, "peer_joint_dof")?,
                body_inertia: symbol(lib, "peer_body_inertia")?,
                min_contact_dist: symbol(lib, "peer_min_contact_dist")?,
                solver_iterations: symbol(lib, "peer_solver_iterations")?,
                ngeom: symbol(lib, "peer_ngeom")?,
                lowest_geom_z: symbol(lib, "peer_lowest_geom_z")?,
                set_margin: symbol(lib, "peer_set_margin")?,
                contact_pairs: symbol(lib, "peer_contact_pairs")?,
                ncon: symbol(lib, "peer_ncon")?,
                set_integrator: symbol(lib, "peer_set_integrator")?,
                set_timestep: symbol(lib, "peer_set_timestep")?,
                nv: symbol(lib, "peer_nv")?,
            })))
        }
    }

    pub fn version(&self) -> String {
        // SAFETY: mj_versionString returns a static C string.
        unsafe { CStr::from_ptr((self.0.version)()).to_string_lossy().into_owned() }
    }

    /// A model from an MJCF file, its data at keyframe 0 (or the model's qpos0).
    pub fn load(&self, xml: &Path) -> Result<MjSim, String> {
        let path = CString::new(xml.to_string_lossy().as_bytes()).unwrap();
        let mut err = [0 as c_char; 1000];
        // SAFETY: err is writable for its length; the shim owns the returned pointer.
        let ptr = unsafe { (self.0.load)(path.as_ptr(), err.as_mut_ptr(), err.len() as c_int) };
        if ptr.is_null() {
            // SAFETY: MuJoCo writes a NUL-terminated message into err.
            return Err(unsafe { CStr::from_ptr(err.as_ptr()) }.to_string_lossy().into_owned());
        }
        Ok(MjSim { api: self.0.clone(), ptr })
    }
}

/// One MuJoCo model and its data.
pub struct MjSim {
    api: Rc<Api>,
    ptr: *mut c_void,
}

fn name(s: &str) -> CString {
    CString::new(s).unwrap()
}

// SAFETY (every method): `ptr` is a live PeerSim from peer_load, freed only in Drop; the
// arrays the shim returns live as long as it and have the lengths MuJoCo documents
// (qpos nq, qvel nv, ctrl nu, xipos 3·nbody, xquat 4·nbody), indexed here within them.
impl MjSim {
    pub fn set_elliptic_cone(&mut self, elliptic: bool) {
        unsafe { (self.api.set_elliptic_cone)(self.ptr, elliptic as c_int) }
    }
    /// Time constant of every geom's contact solref [s] (MuJoCo's default: 0.02).
    pub fn set_contact_timeconst(&mut self, seconds: f64) {
        unsafe { (self.api.set_contact_timeconst)(self.ptr, seconds) }
    }
    pub fn reset(&mut self) {
        unsafe { (self.api.reset)(self.ptr) }
    }
    pub fn forward(&mut self) {
        unsafe { (self.api.forward)(self.ptr) }
    }
    /// Body and geom poses from qpos (mj_kinematics).
    #[allow(dead_code)] // the narrow-phase and collision-stage benches', not the peer bench's
    pub fn kinematics(&mut self) {
        unsafe { (self.api.kinematics)(self.ptr) }
    }
    /// The collision stage alone (mj_collision): the number of contacts found.
    #[allow(dead_code)] // the narrow-phase and collision-stage benches', not the peer bench's
    #[inline]
    pub fn collision(&mut self) -> usize {
        unsafe { (self.api.collision)(self.ptr) as usize }
    }
    #[inline]
    pub fn step(&mut self) {
        unsafe { (self.api.step)(self.ptr) }
    }
    pub fn timestep(&self) -> f64 {
        unsafe { (self.api.timestep)(self.ptr) }
    }
    /// Simulated time [s].
    #[inline]
    pub fn time(&self) -> f64 {
        unsafe { (self.api.time)(self.ptr) }
    }
    pub fn nbody(&self) -> usize {
        unsafe { (self.api.nbody)(self.ptr) as usize }
    }
    pub fn qpos(&mut self) -> &mut [f64] {
        unsafe { std::slice::from_raw_parts_mut((self.api.qpos)(self.ptr), (self.api.nq)(self.ptr) as usize) }
    }
    #[inline]
    pub fn qpos_at(&self, adr: usize) -> f64 {
        unsafe { *(self.api.qpos)(self.ptr).add(adr) }
    }
    #[inline]
    pub fn qvel_at(&self, adr: usize) -> f64 {
        unsafe { *(self.api.qvel)(self.ptr).add(adr) }
    }
    #[inline]
    pub fn set_ctrl(&mut self, actuator: usize, u: f64) {
        unsafe { *(self.api.ctrl)(self.ptr).add(actuator) = u }
    }
    /// Centre of mass of a body in the world.
    pub fn xipos(&self, body: usize) -> [f64; 3] {
        let p = unsafe { std::slice::from_raw_parts((self.api.xipos)(self.ptr).add(3 * body), 3) };
        [p[0], p[1], p[2]]
    }
    /// Orientation (w, x, y, z) of a body frame.
    pub fn xquat(&self, body: usize) -> [f64; 4] {
        let q = unsafe { std::slice::from_raw_parts((self.api.xquat)(self.ptr).add(4 * body), 4) };
        [q[0], q[1], q[2], q[3]]
    }
    fn id(&self, f: unsafe extern "C" fn(*const c_void, *const c_char) -> c_int, what: &str, n: &str) -> usize {
        let i = unsafe { f(self.ptr, name(n).as_ptr()) };
        assert!(i >= 0, "MuJoCo model has no {what} `{n}`");
        i as usize
    }
    pub fn body(&self, n: &str) -> usize {
        self.id(self.api.body, "body", n)
    }
    pub fn actuator(&self, n: &str) -> usize {
        self.id(self.api.actuator, "actuator", n)
    }
    pub fn joint_qpos(&self, n: &str) -> usize {
        self.id(self.api.joint_qpos, "joint", n)
    }
    pub fn joint_dof(&self, n: &str) -> usize {
        self.id(self.api.joint_dof, "joint", n)
    }
    /// Mass and full inertia (row-major, about the centre of mass, in the body frame).
    pub fn body_inertia(&self, body: usize) -> [f64; 10] {
        let mut out = [0.0; 10];
        unsafe { (self.api.body_inertia)(self.ptr, body as c_int, out.as_mut_ptr()) };
        out
    }
    /// Most negative contact distance of the last step (+∞ without contacts).
    pub fn min_contact_dist(&self) -> f64 {
        unsafe { (self.api.min_contact_dist)(self.ptr) }
    }
    pub fn solver_iterations(&self) -> usize {
        unsafe { (self.api.solver_iterations)(self.ptr) as usize }
    }
    // benches/collision_stage.rs's (peer.rs does not call them)
    #[allow(dead_code)]
    pub fn ngeom(&self) -> usize {
        unsafe { (self.api.ngeom)(self.ptr) as usize }
    }
    /// Every geom's contact margin (m).
    #[allow(dead_code)]
    pub fn set_margin(&mut self, margin: f64) {
        unsafe { (self.api.set_margin)(self.ptr, margin) }
    }
    /// Distinct geom pairs among the last collision stage's contacts.
    #[allow(dead_code)]
    pub fn contact_pairs(&self) -> usize {
        unsafe { (self.api.contact_pairs)(self.ptr) as usize }
    }
    /// Contacts of the last step (d->ncon).
    #[allow(dead_code)]
    pub fn ncon(&self) -> usize {
        unsafe { (self.api.ncon)(self.ptr) as usize }
    }
    /// MuJoCo's RK4 integrator (mjINT_RK4) when `rk4`, else its default semi-implicit Euler.
    #[allow(dead_code)]
    pub fn set_integrator(&mut self, rk4: bool) {
        unsafe { (self.api.set_integrator)(self.ptr, rk4 as c_int) }
    }
    #[allow(dead_code)]
    pub fn set_timestep(&mut self, dt: f64) {
        unsafe { (self.api.set_timestep)(self.ptr, dt) }
    }
    #[allow(dead_code)]
    pub fn qvel(&mut self) -> &mut [f64] {
        unsafe { std::slice::from_raw_parts_mut((self.api.qvel)(self.ptr), (self.api.nv)(self.ptr) as usize) }
    }
    /// Lowest world z of any geom on a body (planes left out), at the current kinematics.
    #[allow(dead_code)]
    pub fn lowest_geom_z(&self) -> f64 {
        unsafe { (self.api.lowest_geom_z)(self.ptr) }
    }
}

impl Drop for MjSim {
    fn drop(&mut self) {
        unsafe { (self.api.free)(self.ptr) }
    }
}
