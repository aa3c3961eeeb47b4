// The 3D view: a .glb made by levelkit (the library's glTF exporter, in the worker) shown with
// three.js: orbit controls, the file's own lights (or a default rig when it has none), its
// textures, and every animation it carries (spins, model frames) playing in a loop.
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';

export async function showGlb(host, buffer) {
  const width = Math.max(1, host.clientWidth), height = Math.max(1, host.clientHeight);
  const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(1);
  renderer.setSize(width, height);
  host.appendChild(renderer.domElement);
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0x202028);
  const gltf = await new GLTFLoader().parseAsync(buffer, '');
  scene.add(gltf.scene);
  let lights = 0;
  gltf.scene.traverse((o) => { if (o.isLight) lights++; });
  scene.add(new THREE.AmbientLight(0xffffff, lights ? 0.4 : 1.2));
  if (!lights) {
    const sun = new THREE.DirectionalLight(0xffffff, 2.0);
    sun.position.set(1, 2, 3);
    scene.add(sun);
  }
  const box = new THREE.Box3().setFromObject(gltf.scene);
  const size = box.isEmpty() ? 1 : Math.max(1e-6, box.getSize(new THREE.Vector3()).length());
  const center = box.isEmpty() ? new THREE.Vector3() : box.getCenter(new THREE.Vector3());
  const camera = new THREE.PerspectiveCamera(50, width / height, size / 1000, size * 100);
  camera.position.copy(center).add(new THREE.Vector3(0.6, 0.5, 1).normalize().multiplyScalar(size * 1.1));
  const controls = new OrbitControls(camera, renderer.domElement);
  controls.target.copy(center);
  controls.update();
  const mixer = new THREE.AnimationMixer(gltf.scene);
  for (const clip of gltf.animations) mixer.clipAction(clip).play();
  const clock = new THREE.Clock();
  let running = true;
  const frame = () => {
    if (!running) return;
    mixer.update(clock.getDelta());
    controls.update();
    renderer.render(scene, camera);
    requestAnimationFrame(frame);
  };
  renderer.render(scene, camera);
  requestAnimationFrame(frame);
  const onResize = () => {
    const w = Math.max(1, host.clientWidth), h = Math.max(1, host.clientHeight);
    renderer.setSize(w, h);
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
  };
  window.addEventListener('resize', onResize);
  return {
    animations: gltf.animations.length,
    dispose() {
      running = false;
      window.removeEventListener('resize', onResize);
      controls.dispose();
      renderer.dispose();
      renderer.domElement.remove();
    },
  };
}
