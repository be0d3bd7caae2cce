#pragma once
// The full view factor field of docs/design.md §4 (steps 1-3): per face F3' in [f_out, 1], the factor its sizing tensor
// is scaled by (M_vd = F^2 M).
//
//   F2 (one camera): d = signed distance of the face to the frustum (the smallest over its three nodes of
//      Camera::frustumDistance, so a face that reaches into the frustum counts as inside; with occlusion a node's
//      distance is the larger of that and how far it lies behind what the camera sees there), delta = clamp(d / margin,
//      0, 1), Fb = f_out for a back-facing face when back-face coarsening is on, else 1, F2 = (1 - delta) Fb +
//      delta f_out. Outside the frustum the factor falls over `margin` metres (the buffer the paper's Eq. 8 lacks).
//   F3' (anticipation): the face's *current* position is tested against the cameras of frames t + i dt,
//      i in [-m_t, m_t], F3' = max_i w_i F2_i with w_i = min(1, 1 - (|i| - n) / m_t): full weight within n frames
//      on both sides (so cloth is refined n frames before a jump cut shows it and stays refined n frames after it
//      leaves), then a linear fall to n / m_t at the ends of the window.
//
// This differs from basicViewFactor (view_factor.h, step 1 only), which `render --color view` draws.
#include <vector>

#include "mesh/mesh.h"
#include "view/camera_path.h"
#include "view/occlusion.h"
#include "view/params.h"

namespace adacloth {

// The cameras of the anticipation window around one time and their weights w_i (same order, i = -m_t .. m_t).
struct ViewWindow {
  std::vector<Camera> cameras;
  std::vector<std::array<Plane, 6>> planes;  // each camera's frustum planes, computed once per frame
  std::vector<double> weights;
  int current = 0;  // index of the camera at the current time (i = 0)
  int comingCut = -1;  // index of the first camera of the next shot (after a cut) ahead in the window, or -1
  // When occlusion is on (addOcclusion): one depth map per distinct camera, and per camera the index of its map.
  std::vector<DepthMap> depthMaps;
  std::vector<int> depthMapIndex;
};

// Weight of the camera i frames away (docs/design.md §4.3): 1 for |i| <= n, then 1 - (|i| - n) / m_t.
double anticipationWeight(int i, int fullFrames, int windowFrames);

// The window of `spec` around time t (s) on `path`, one camera per frame of length frameTime (s).
ViewWindow makeViewWindow(const CameraPath& path, double t, double frameTime, const ViewParams& spec);

// Renders a depth map of the occluders for every camera of the window: from then on a node hidden behind a surface
// counts as outside the view by the distance it lies behind it (occlusion.h), with the same margin and anticipation.
void addOcclusion(ViewWindow& window, const Occluders& occluders);

// F2 of a face with nodes a, b, c (world, m; counter-clockwise seen from the front) against one camera.
double smoothedViewFactor(const Camera& camera, const Vec3& a, const Vec3& b, const Vec3& c, const ViewParams& spec);

// Whether the face is seen at all by the camera: it reaches into the frustum and, with back-face coarsening on, faces
// the camera (F2 = 1 exactly). This is what stats.jsonl counts as `visible_faces`.
bool faceInView(const Camera& camera, const Vec3& a, const Vec3& b, const Vec3& c, const ViewParams& spec);
// The same against the window's camera `index`, with its occlusion when the window has depth maps.
bool faceInView(const ViewWindow& window, int index, const Vec3& a, const Vec3& b, const Vec3& c,
                const ViewParams& spec);
// The same against the window's current camera.
bool faceInView(const ViewWindow& window, const Vec3& a, const Vec3& b, const Vec3& c, const ViewParams& spec);

struct ViewFactorField {
  std::vector<double> factor;  // F3' per face
  std::vector<int> camera;     // per face: index into the window of the camera that gave the max (current on ties);
                               // -1: sized without the view (keepHeldFacesViewIndependent)
};

// F3' of every face of the mesh over the window. Parallel over faces, each writing its own slot.
ViewFactorField viewFactorField(const Mesh& mesh, const ViewWindow& window, const ViewParams& spec);

}  // namespace adacloth
