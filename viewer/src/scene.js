// Builds the three.js scene of a recording (docs/RECORDING.md): one group per body
// holding its shapes, world shapes, joint frames and a pool of contact-force arrows.
import * as THREE from 'three';
import { ConvexGeometry } from 'three/examples/jsm/geometries/ConvexGeometry.js';

const COLORS = { link: 0xe07b39, contact: 0x3a6fb0, inertia: 0x8fa7c4 };

// The box around the body positions of `frames` (m).
export function extent(frames) {
  const box = new THREE.Box3();
  const p = new THREE.Vector3();
  for (const f of frames) {
    for (let i = 0; i < f.x.length; i += 3) box.expandByPoint(p.set(f.x[i], f.x[i + 1], f.x[i + 2]));
  }
  return box;
}

// Twice the reach of a body's shape from the body's origin (0 for world shapes).
function bodyShapeSize(s) {
  if (s.body === null) return 0;
  let hull = 0;
  for (let i = 0; i < (s.points ?? []).length; i += 3) hull = Math.max(hull, Math.hypot(s.points[i], s.points[i + 1], s.points[i + 2]));
  const reach = Math.hypot(...s.pos) + (s.radius ?? 0) + (s.half_length ?? 0) + Math.hypot(...(s.half_extents ?? [0])) + hull;
  return 2 * reach;
}

// Metres of arrow per newton: the model's weight is half a model size long (without
// gravity, the largest force is).
function forceScale(rec, modelSize) {
  const weight = rec.bodies.reduce((m, b) => m + b.mass, 0) * Math.hypot(...rec.gravity);
  let largest = 0;
  for (const frame of rec.frames) for (const c of frame.contacts) largest = Math.max(largest, Math.hypot(...c.force));
  const unit = weight > 0 ? weight : largest;
  return unit > 0 ? (0.5 * modelSize) / unit : 0;
}

function material(role) {
  return new THREE.MeshStandardMaterial({
    color: COLORS[role] ?? 0x999999,
    roughness: 0.6,
    metalness: 0.1,
    transparent: role === 'inertia',
    opacity: role === 'inertia' ? 0.8 : 1,
  });
}

// The mesh of one shape in its own frame; `dot` is the radius a point is drawn with.
function shapeMesh(s, dot, planeSize, modelSize) {
  let g;
  switch (s.type) {
    case 'sphere': g = new THREE.SphereGeometry(Math.max(s.radius, dot), 24, 16); break;
    case 'capsule': g = new THREE.CapsuleGeometry(s.radius, 2 * s.half_length, 6, 16).rotateX(Math.PI / 2); break;
    case 'cylinder': g = new THREE.CylinderGeometry(s.radius, s.radius, 2 * s.half_length, 24).rotateX(Math.PI / 2); break;
    case 'box': g = new THREE.BoxGeometry(...s.half_extents.map((h) => 2 * h)); break;
    case 'hull': {
      // a mesh collides as its convex hull: the recording holds the hull's points
      const points = [];
      for (let i = 0; i < s.points.length; i += 3) points.push(new THREE.Vector3(s.points[i], s.points[i + 1], s.points[i + 2]));
      g = new ConvexGeometry(points);
      break;
    }
    case 'heightfield': {
      // heights row-major, the grid centred on the shape frame; each cell split along the
      // diagonal from (c, r + 1) to (c + 1, r), as the narrow phase splits it
      const points = [];
      for (let r = 0; r < s.rows; r++) {
        for (let c = 0; c < s.cols; c++) points.push((c - (s.cols - 1) / 2) * s.dx, (r - (s.rows - 1) / 2) * s.dy, s.heights[r * s.cols + c]);
      }
      const index = [];
      for (let r = 0; r + 1 < s.rows; r++) {
        for (let c = 0; c + 1 < s.cols; c++) {
          const p = (rr, cc) => rr * s.cols + cc;
          index.push(p(r, c), p(r, c + 1), p(r + 1, c), p(r + 1, c), p(r, c + 1), p(r + 1, c + 1));
        }
      }
      g = triangles(points, index);
      break;
    }
    case 'trimesh': g = triangles(s.points, s.triangles); break;
    case 'plane': {
      // grid lines a round 1, 2 or 5 × 10^k metres apart, about a model size
      const step = [1, 2, 5].map((m) => m * 10 ** Math.floor(Math.log10(modelSize))).filter((v) => v <= modelSize).pop();
      const lines = Math.min(Math.ceil(planeSize / step / 2) * 2, 400);
      const grid = new THREE.GridHelper(lines * step, lines, 0x8890a0, 0xa8aeb8);
      grid.rotateX(Math.PI / 2);
      const floor = new THREE.Mesh(new THREE.PlaneGeometry(planeSize, planeSize),
        new THREE.MeshStandardMaterial({ color: 0xdde1e6, roughness: 1 }));
      floor.receiveShadow = true;
      const group = new THREE.Group();
      grid.position.z = 1e-4 * planeSize;
      group.add(floor, grid);
      return group;
    }
    default: throw new Error(`unknown shape type ${s.type}`);
  }
  const m = new THREE.Mesh(g, material(s.role));
  m.castShadow = true;
  return m;
}

// A mesh of triangles: flat x, y, z triples and index triples.
function triangles(points, index) {
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.Float32BufferAttribute(points, 3));
  g.setIndex(index);
  g.computeVertexNormals();
  return g;
}

function place(obj, pos, quat) {
  obj.position.set(pos[0], pos[1], pos[2]);
  obj.quaternion.set(quat[1], quat[2], quat[3], quat[0]);
}

// Everything drawn of `rec`, added to `scene`; returns the handles the player moves.
export function buildScene(rec, scene) {
  // the motion's box places the camera; the model's size (its first frame) sizes marks
  const box = extent(rec.frames);
  const size = Math.max(box.getSize(new THREE.Vector3()).length(), 0.5);
  const modelSize = Math.max(extent(rec.frames.slice(0, 1)).getSize(new THREE.Vector3()).length(), ...rec.shapes.map(bodyShapeSize), 0.05);
  const dot = 0.02 * modelSize;
  const bodies = rec.bodies.map(() => {
    const g = new THREE.Group();
    scene.add(g);
    return g;
  });
  const parentOf = (b) => (b === null || b === undefined ? scene : bodies[b]);
  for (const s of rec.shapes) {
    const mesh = shapeMesh(s, dot, 3 * size, modelSize);
    place(mesh, s.pos, s.quat);
    if (s.type === 'plane') {
      // centre the drawn floor under the motion
      const c = box.getCenter(new THREE.Vector3());
      mesh.position.x += c.x;
      mesh.position.y += c.y;
    }
    parentOf(s.body).add(mesh);
  }
  const jointHolders = rec.joints.map((j) => {
    const frame = new THREE.AxesHelper(0.08 * modelSize);
    frame.position.set(...j.anchor);
    const axis = new THREE.ArrowHelper(new THREE.Vector3(...j.axis).normalize(), frame.position, 0.12 * modelSize, 0xd0b000);
    const holder = new THREE.Group();
    holder.add(frame, axis);
    holder.visible = false;
    parentOf(j.parent).add(holder);
    return holder;
  });
  const arrows = new THREE.Group();
  scene.add(arrows);
  return { bodies, box, size, modelSize, jointHolders, arrows, forceScale: forceScale(rec, modelSize) };
}

// Poses the bodies and the force arrows at frame `f`.
export function showFrame(handles, f, showForces) {
  handles.bodies.forEach((g, i) => {
    g.position.set(f.x[3 * i], f.x[3 * i + 1], f.x[3 * i + 2]);
    g.quaternion.set(f.q[4 * i + 1], f.q[4 * i + 2], f.q[4 * i + 3], f.q[4 * i]);
  });
  const arrows = handles.arrows;
  const shortest = 0.01 * handles.modelSize;
  const longest = 0.6 * handles.modelSize;
  let used = 0;
  if (showForces) {
    for (const c of f.contacts) {
      const v = new THREE.Vector3(...c.force);
      const len = Math.min(v.length() * handles.forceScale, longest);
      if (len < shortest) continue;
      if (used === arrows.children.length) arrows.add(new THREE.ArrowHelper(new THREE.Vector3(0, 0, 1), new THREE.Vector3(), 1, 0x20a050));
      const a = arrows.children[used++];
      a.position.set(...c.point);
      a.setDirection(v.normalize());
      const head = Math.min(0.3 * len, 0.06 * handles.modelSize);
      a.setLength(len, head, 0.5 * head);
      a.visible = true;
    }
  }
  for (let i = used; i < arrows.children.length; i++) arrows.children[i].visible = false;
}
