use levelkit::formats::mdl::{self, Mdl};
use levelkit::gltf::{self, GltfOptions};
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let bytes = std::fs::read(&args[0]).unwrap();
    let n: usize = args[1].parse().unwrap();
    let t = std::time::Instant::now();
    for _ in 0..n {
        std::hint::black_box(Mdl::read(&bytes).unwrap());
    }
    eprintln!("read {:?}", t.elapsed() / n as u32);
    let model = Mdl::read(&bytes).unwrap();
    let t = std::time::Instant::now();
    for _ in 0..n {
        std::hint::black_box(mdl::scene::to_scene(&model));
    }
    eprintln!("to_scene {:?}", t.elapsed() / n as u32);
    let (scene, _) = mdl::scene::to_scene(&model);
    let opts = GltfOptions {
        binary: true,
        ..GltfOptions::default()
    };
    let t = std::time::Instant::now();
    let mut len = 0;
    for _ in 0..n {
        len += gltf::write(&scene, &opts).unwrap().main.len();
    }
    eprintln!("{:?} per write ({len})", t.elapsed() / n as u32);
}
