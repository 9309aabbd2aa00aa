// A flat C face of MuJoCo for benches/peer.rs (loaded with dlopen): load a model, reach
// its state arrays and names, step, and read what the table reports. Built by setup.sh
// against the headers and libmujoco of the `mujoco` wheel.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <mujoco/mujoco.h>

typedef struct {
  mjModel* m;
  mjData* d;
} PeerSim;

const char* peer_version(void) { return mj_versionString(); }

// The model in an MJCF file and its data reset to keyframe 0 if it has one; NULL with the
// message in err on failure.
PeerSim* peer_load(const char* path, char* err, int err_len) {
  mjModel* m = mj_loadXML(path, NULL, err, err_len);
  if (!m) return NULL;
  PeerSim* s = (PeerSim*)malloc(sizeof(PeerSim));
  s->m = m;
  s->d = mj_makeData(m);
  if (m->nkey > 0) mj_resetDataKeyframe(m, s->d, 0);
  mj_forward(m, s->d);
  return s;
}

void peer_free(PeerSim* s) {
  mj_deleteData(s->d);
  mj_deleteModel(s->m);
  free(s);
}

void peer_set_elliptic_cone(PeerSim* s, int elliptic) { s->m->opt.cone = elliptic ? mjCONE_ELLIPTIC : mjCONE_PYRAMIDAL; }

// Contact stiffness: the time constant of every geom's solref (MuJoCo default 0.02 s).
void peer_set_contact_timeconst(PeerSim* s, double timeconst) {
  for (int i = 0; i < s->m->ngeom; i++) s->m->geom_solref[mjNREF * i] = timeconst;
}

// Back to the initial state (keyframe 0 if any) with positions, contacts computed.
void peer_reset(PeerSim* s) {
  if (s->m->nkey > 0) mj_resetDataKeyframe(s->m, s->d, 0);
  else mj_resetData(s->m, s->d);
  mj_forward(s->m, s->d);
}

void peer_forward(PeerSim* s) { mj_forward(s->m, s->d); }
// Poses of the bodies and geoms from qpos (what the collision stage reads).
void peer_kinematics(PeerSim* s) { mj_kinematics(s->m, s->d); }
// The collision stage alone (broad phase over the model's geoms, then each near pair's
// narrow phase into d->contact): the number of contacts it found.
int peer_collision(PeerSim* s) {
  mj_collision(s->m, s->d);
  return s->d->ncon;
}
void peer_step(PeerSim* s) { mj_step(s->m, s->d); }

double peer_timestep(const PeerSim* s) { return s->m->opt.timestep; }
double peer_time(const PeerSim* s) { return s->d->time; }
int peer_nbody(const PeerSim* s) { return s->m->nbody; }
int peer_nq(const PeerSim* s) { return s->m->nq; }
double* peer_qpos(PeerSim* s) { return s->d->qpos; }
double* peer_qvel(PeerSim* s) { return s->d->qvel; }
double* peer_ctrl(PeerSim* s) { return s->d->ctrl; }
// World positions of the bodies' centres of mass (nbody × 3) and orientations of their
// body frames (nbody × 4, w x y z).
const double* peer_xipos(const PeerSim* s) { return s->d->xipos; }
const double* peer_xquat(const PeerSim* s) { return s->d->xquat; }

int peer_body(const PeerSim* s, const char* name) { return mj_name2id(s->m, mjOBJ_BODY, name); }
int peer_actuator(const PeerSim* s, const char* name) { return mj_name2id(s->m, mjOBJ_ACTUATOR, name); }
int peer_joint_qpos(const PeerSim* s, const char* name) {
  int j = mj_name2id(s->m, mjOBJ_JOINT, name);
  return j < 0 ? -1 : s->m->jnt_qposadr[j];
}
int peer_joint_dof(const PeerSim* s, const char* name) {
  int j = mj_name2id(s->m, mjOBJ_JOINT, name);
  return j < 0 ? -1 : s->m->jnt_dofadr[j];
}

// Mass and full inertia (row-major 3×3, about the centre of mass, in the body frame).
void peer_body_inertia(const PeerSim* s, int body, double out[10]) {
  double r[9];
  mju_quat2Mat(r, s->m->body_iquat + 4 * body);
  const double* i = s->m->body_inertia + 3 * body;
  out[0] = s->m->body_mass[body];
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++)
      out[1 + 3 * a + b] = r[3 * a] * i[0] * r[3 * b] + r[3 * a + 1] * i[1] * r[3 * b + 1] + r[3 * a + 2] * i[2] * r[3 * b + 2];
}

// The most negative signed distance of the contacts found in the last step (+inf: none).
double peer_min_contact_dist(const PeerSim* s) {
  double m = INFINITY;
  for (int i = 0; i < s->d->ncon; i++)
    if (s->d->contact[i].dist < m) m = s->d->contact[i].dist;
  return m;
}

// Constraint-solver iterations of the last step, summed over the constraint islands
// (0 when there are no constraints).
int peer_solver_iterations(const PeerSim* s) {
  int n = s->d->nisland < mjNISLAND ? s->d->nisland : mjNISLAND;
  if (n <= 0) return s->d->nefc > 0 ? s->d->solver_niter[0] : 0;
  int total = 0;
  for (int i = 0; i < n; i++) total += s->d->solver_niter[i];
  return total;
}

// For benches/collision_stage.rs (with peer_kinematics and peer_collision above).

int peer_ngeom(const PeerSim* s) { return s->m->ngeom; }

// Lowest world z of any geom on a body (planes left out), from the current kinematics:
// primitives by their support along -z, meshes by their vertices.
double peer_lowest_geom_z(const PeerSim* s) {
  const mjModel* m = s->m;
  const mjData* d = s->d;
  double lowest = INFINITY;
  for (int g = 0; g < m->ngeom; g++) {
    if (m->geom_bodyid[g] == 0) continue;
    const double* p = d->geom_xpos + 3 * g;
    const double* r = d->geom_xmat + 9 * g;  // row-major: column i is the geom's axis i
    const double* size = m->geom_size + 3 * g;
    double below;
    switch (m->geom_type[g]) {
      case mjGEOM_SPHERE: below = size[0]; break;
      case mjGEOM_CAPSULE: below = size[0] + size[1] * fabs(r[8]); break;
      case mjGEOM_CYLINDER: below = size[0] * sqrt(r[6] * r[6] + r[7] * r[7]) + size[1] * fabs(r[8]); break;
      case mjGEOM_BOX: below = size[0] * fabs(r[6]) + size[1] * fabs(r[7]) + size[2] * fabs(r[8]); break;
      case mjGEOM_MESH: {
        int id = m->geom_dataid[g];
        const float* v = m->mesh_vert + 3 * m->mesh_vertadr[id];
        double min_z = INFINITY;  // lowest vertex relative to the geom's origin
        for (int k = 0; k < m->mesh_vertnum[id]; k++) {
          double z = r[6] * v[3 * k] + r[7] * v[3 * k + 1] + r[8] * v[3 * k + 2];
          if (z < min_z) min_z = z;
        }
        below = -min_z;
        break;
      }
      default: continue;
    }
    if (p[2] - below < lowest) lowest = p[2] - below;
  }
  return lowest;
}

// Every geom's contact margin (m; MuJoCo's default 0): its inflation for contact, so a
// pair's contacts are reported up to the sum of its two geoms' margins apart.
void peer_set_margin(PeerSim* s, double margin) {
  for (int i = 0; i < s->m->ngeom; i++) s->m->geom_margin[i] = margin;
}

// Contacts of the last step (for benches/pile_scaling.rs).
int peer_ncon(const PeerSim* s) { return s->d->ncon; }

// Distinct geom pairs among the contacts of the last collision stage.
int peer_contact_pairs(const PeerSim* s) {
  int pairs = 0;
  for (int i = 0; i < s->d->ncon; i++) {
    const int* g = s->d->contact[i].geom;
    int seen = 0;
    for (int k = 0; k < i && !seen; k++) {
      const int* h = s->d->contact[k].geom;
      seen = (g[0] == h[0] && g[1] == h[1]) || (g[0] == h[1] && g[1] == h[0]);
    }
    pairs += !seen;
  }
  return pairs;
}

// For benches/integrator_peer.rs and the report's integrator figure.

// The integrator: mjINT_RK4 when rk4 is set, else mjINT_EULER (MuJoCo's default:
// semi-implicit Euler, damping implicit).
void peer_set_integrator(PeerSim* s, int rk4) { s->m->opt.integrator = rk4 ? mjINT_RK4 : mjINT_EULER; }
void peer_set_timestep(PeerSim* s, double dt) { s->m->opt.timestep = dt; }
int peer_nv(const PeerSim* s) { return s->m->nv; }
