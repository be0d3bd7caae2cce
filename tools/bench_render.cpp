// Rendering benchmark: a 100k-triangle cloth at 1920x1080 with 2x2 supersampling, ground plane on, wireframe off.
// Prints ms per frame for rasterizing (setup, binning, raster, shading, resolve) and for PNG encoding, at 1 and 2
// threads (median of several frames with a moving camera). Goal (issue 6): <= 250 ms for each on 2 cores.
//
//   ./build/bench_render [frames] [sample.png]   (default 5 frames per thread count; optionally writes the last
//                                                  frame, to look at)
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#include "app/memory_policy.h"
#include "mesh/generators.h"
#include "render/frame_scene.h"
#include "render/png.h"
#include "render/rasterizer.h"

using namespace adacloth;

namespace {

double msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// CPU time of the whole process (all threads), ms: on a busy machine wall time is inflated by waiting for a core,
// CPU time / threads is then the better estimate of the wall time on idle cores.
double cpuMs() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// A 1.6 x 1.6 m sheet, 224 x 224 cells (100,352 triangles), hanging in folds like a curtain.
Mesh curtain() {
  Mesh m = makeGrid(1.6, 1.6, 224, 224);
  for (Node& n : m.nodes) {
    const double u = n.x.x(), v = n.x.y();
    n.x = Vec3(u - 0.8, v + 0.2, 0.08 * std::sin(18.0 * u) * (1.2 - 0.5 * v) + 0.03 * std::sin(7.0 * v + 3 * u));
  }
  m.updateGeometry();
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  adacloth::keepFreedMemoryForReuse();  // as the adacloth program does (src/app/main.cpp)
  const int frames = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  const Mesh cloth = curtain();
  std::printf("cloth: %zu triangles; image 1920x1080, 2x2 supersampling, ground plane; %d frames per row\n\n",
              cloth.faces.size(), frames);
  std::printf("| threads | rasterize ms/frame | (CPU ms, all threads) | PNG encode ms/frame | (CPU ms) | PNG size (MB) |\n"
              "|---|---|---|---|---|---|\n");
  const std::vector<RenderMesh> base = {clothRenderMesh(cloth, 0, FrameStyle{})};
  for (int threads : {1, 2}) {
    omp_set_num_threads(threads);
    std::vector<double> raster, encode, rasterCpu, encodeCpu;
    size_t bytes = 0;
    for (int f = 0; f < frames; ++f) {
      const double angle = 0.25 * f / std::max(1, frames - 1) - 0.125;
      const Camera cam = makeCamera({2.2 * std::sin(angle), 1.1, 2.2 * std::cos(angle)}, {0.0, 1.0, 0.0}, {0, 1, 0},
                                    40.0, 0.05, 50.0, 1920, 1080);
      std::vector<RenderMesh> meshes = base;
      meshes.push_back(groundPlane(0.0, cam.eye, cam.far, 0.5, srgb(186, 184, 176)));
      auto t0 = std::chrono::steady_clock::now();
      double c0 = cpuMs();
      const Image image = rasterize(meshes, cam);
      raster.push_back(msSince(t0));
      rasterCpu.push_back(cpuMs() - c0);
      t0 = std::chrono::steady_clock::now();
      c0 = cpuMs();
      const std::string png = encodePng(image);
      bytes = png.size();
      encode.push_back(msSince(t0));
      encodeCpu.push_back(cpuMs() - c0);
      if (argc > 2 && f == frames - 1) writePng(image, argv[2]);
    }
    std::printf("| %d | %.1f | %.1f | %.1f | %.1f | %.2f |\n", threads, median(raster), median(rasterCpu),
                median(encode), median(encodeCpu), bytes / 1e6);
  }
  return 0;
}
