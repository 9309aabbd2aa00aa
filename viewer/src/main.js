// The viewer page: loads a recording (embedded, ?src=URL, or a dropped file), draws it
// and plays it. URL hash options for scripted screenshots: #t=1.5 (show that time,
// paused), &frames=1 (joint frames), &forces=0, &follow=1 (close up, following body 0).
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { buildScene, showFrame } from './scene.js';
import { Clock, frameAt } from './player.js';

const $ = (id) => document.getElementById(id);
const hash = new URLSearchParams(location.hash.slice(1));

function check(rec) {
  if (rec.format !== 'maxdyn-recording') throw new Error('not a maxdyn recording (format field)');
  if (rec.version !== 1) throw new Error(`recording version ${rec.version}: this viewer reads version 1`);
  if (!rec.frames.length) throw new Error('the recording has no frames');
  return rec;
}

function start(rec) {
  check(rec);
  $('open').style.display = 'none';
  const view = $('view');
  const renderer = new THREE.WebGLRenderer({ antialias: true });
  renderer.setPixelRatio(window.devicePixelRatio);
  renderer.shadowMap.enabled = true;
  view.appendChild(renderer.domElement);
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0xeef0f3);
  const handles = buildScene(rec, scene);
  const { box, size } = handles;
  const centre = box.getCenter(new THREE.Vector3());

  scene.add(new THREE.HemisphereLight(0xffffff, 0x667788, 1.6));
  const sun = new THREE.DirectionalLight(0xffffff, 1.6);
  sun.position.copy(centre).add(new THREE.Vector3(size, -size, 2 * size));
  sun.target.position.copy(centre);
  sun.castShadow = true;
  Object.assign(sun.shadow.camera, { left: -size, right: size, top: size, bottom: -size, far: 6 * size });
  scene.add(sun, sun.target);

  const camera = new THREE.PerspectiveCamera(40, 1, size / 1000, size * 100);
  camera.up.set(0, 0, 1);
  // look at the motion from the front right, from about its size plus the model's away
  const far = 0.8 * size + 2 * handles.modelSize;
  camera.position.copy(centre).add(new THREE.Vector3(0.35 * far, -0.85 * far, 0.4 * far));
  const controls = new OrbitControls(camera, renderer.domElement);
  controls.target.copy(centre);
  controls.update();

  const frames = rec.frames;
  const clock = new Clock(frames[0].t, frames[frames.length - 1].t);
  const scrub = $('scrub');
  const play = $('play');
  const setPlaying = (p) => {
    clock.playing = p;
    play.textContent = p ? 'Pause' : 'Play';
  };
  play.onclick = () => setPlaying(!clock.playing);
  scrub.oninput = () => {
    setPlaying(false);
    clock.seek(clock.start + (scrub.value / 1000) * (clock.end - clock.start));
  };
  $('speed').onchange = (e) => { clock.speed = Number(e.target.value); };
  $('frames').onchange = (e) => handles.jointHolders.forEach((h) => { h.visible = e.target.checked; });
  window.addEventListener('keydown', (e) => {
    if (e.code === 'Space') { setPlaying(!clock.playing); e.preventDefault(); }
  });
  if (hash.get('frames') === '1') { $('frames').checked = true; $('frames').onchange({ target: $('frames') }); }
  if (hash.get('forces') === '0') $('forces').checked = false;
  if (hash.get('follow') === '1') {
    // close up on the first body, from the same side
    $('follow').checked = true;
    showFrame(handles, frames[0], false);
    controls.target.copy(handles.bodies[0].position);
    camera.position.copy(controls.target).add(new THREE.Vector3(0.35, -0.85, 0.4).multiplyScalar(2.5 * handles.modelSize));
  }
  if (hash.has('t')) clock.seek(Number(hash.get('t')));
  else setPlaying(true);

  const resize = () => {
    renderer.setSize(view.clientWidth, view.clientHeight);
    camera.aspect = view.clientWidth / Math.max(view.clientHeight, 1);
    camera.updateProjectionMatrix();
  };
  window.addEventListener('resize', resize);
  resize();

  renderer.setAnimationLoop((now) => {
    const t = clock.tick(now);
    const k = frameAt(frames, t);
    showFrame(handles, frames[k], $('forces').checked);
    if ($('follow').checked) {
      // keep the camera's offset to the first body
      const b = handles.bodies[0].position;
      camera.position.add(b.clone().sub(controls.target));
      controls.target.copy(b);
    }
    controls.update();
    // the slider follows the clock, also after a seek (the #t= option): it set the clock only
    const position = Math.round((1000 * (t - clock.start)) / Math.max(clock.end - clock.start, 1e-12));
    scrub.value = String(position);
    $('time').textContent = `t = ${frames[k].t.toFixed(3)} s / ${clock.end.toFixed(3)} s`;
    renderer.render(scene, camera);
    $('errors').textContent = window.viewerErrors.join('\n');
    document.body.dataset.status = `ready frames=${frames.length} shown=${k} slider=${scrub.value} errors=${window.viewerErrors.length}`;
  });
}

function fail(e) {
  console.error(e);
  $('errors').textContent = String(e && e.message ? e.message : e);
}

function open(text) {
  try { start(JSON.parse(text)); } catch (e) { fail(e); }
}

const embedded = document.getElementById('recording');
const src = new URLSearchParams(location.search).get('src');
if (embedded) {
  open(embedded.textContent);
} else if (src) {
  fetch(src).then((r) => r.text()).then(open, fail);
} else {
  $('open').style.display = 'block';
  const read = (file) => file.text().then(open, fail);
  $('file').onchange = (e) => read(e.target.files[0]);
  window.addEventListener('dragover', (e) => e.preventDefault());
  window.addEventListener('drop', (e) => { e.preventDefault(); read(e.dataTransfer.files[0]); });
}
