#pragma once
// Cameras and sizing tensors shared by the view-dependent tests.
#include "view/camera_path.h"

namespace adacloth::test {

// The isotropic sizing tensor (1/m^2) of edges `edge` m long.
inline Mat2 isotropic(double edge) { return Mat2::Identity() / (edge * edge); }

// A still 640x360 camera 3 m in front of the XY plane looking at (x0, 0.5, 0) down -Z: with fov 30 deg it sees
// about 1.6 m of the plane.
inline CameraPath stillCameraPath(double x0) {
  CameraPath path;
  path.width = 640;
  path.height = 360;
  CameraKeyframe k;
  k.eye = {x0, 0.5, 3.0};
  k.target = {x0, 0.5, 0.0};
  k.fovYDeg = 30.0;
  k.near = 0.1;
  k.far = 50.0;
  path.keyframes.push_back(k);
  return path;
}

}  // namespace adacloth::test
