#include <catch2/catch.hpp>

#include "view/camera.h"

using namespace adacloth;

namespace {

Camera testCamera() {
  return makeCamera({1.0, 2.0, 5.0}, {0.0, 1.0, 0.0}, {0, 1, 0}, 50.0, 0.1, 20.0, 640, 360);
}

}  // namespace

TEST_CASE("camera basis is orthonormal and up is re-orthogonalised", "[camera]") {
  const Camera c = testCamera();
  CHECK(c.forward.norm() == Approx(1.0));
  CHECK(c.up.norm() == Approx(1.0));
  CHECK(c.right.norm() == Approx(1.0));
  CHECK(std::abs(c.forward.dot(c.up)) < 1e-12);
  CHECK(c.right.isApprox(c.forward.cross(c.up), 1e-12));
  CHECK(c.up.y() > 0.9);  // still "up"
  CHECK_THROWS_AS(makeCamera(Vec3::Zero(), Vec3::Zero(), {0, 1, 0}, 40, 0.1, 10, 10, 10), std::invalid_argument);
  CHECK_THROWS_AS(makeCamera(Vec3::Zero(), {0, 2, 0}, {0, 1, 0}, 40, 0.1, 10, 10, 10), std::invalid_argument);
}

TEST_CASE("projection puts the target at the image centre and agrees with the matrices", "[camera]") {
  const Camera c = testCamera();
  const Vec3 target(0.0, 1.0, 0.0);
  const Vec3 p = c.project(target);
  CHECK(p.x() == Approx(320.0));
  CHECK(p.y() == Approx(180.0));
  CHECK(p.z() == Approx((target - c.eye).norm()));
  // A point up and to the right of the target lands up (smaller y) and right (larger x) in the image.
  const Vec3 q = c.project(target + 0.1 * c.up + 0.1 * c.right);
  CHECK(q.x() > 320.0);
  CHECK(q.y() < 180.0);
  // The OpenGL-style matrices give the same pixel, and NDC depth -1 at near, +1 at far.
  for (const Vec3& x : {Vec3(0.3, 1.2, -0.4), Vec3(-0.5, 0.7, 0.2)}) {
    Eigen::Vector4d clip = c.projectionMatrix() * c.viewMatrix() * x.homogeneous();
    const Vec3 ndc = clip.head<3>() / clip.w();
    const Vec3 px = c.project(x);
    CHECK((ndc.x() + 1) * 0.5 * c.width == Approx(px.x()));
    CHECK((1 - ndc.y()) * 0.5 * c.height == Approx(px.y()));
  }
  auto ndcDepth = [&](double d) {
    Eigen::Vector4d clip = c.projectionMatrix() * c.viewMatrix() * (c.eye + d * c.forward).homogeneous();
    return clip.z() / clip.w();
  };
  CHECK(ndcDepth(c.near) == Approx(-1.0));
  CHECK(ndcDepth(c.far) == Approx(1.0));
  CHECK((c.viewMatrix() * c.eye.homogeneous()).head<3>().norm() < 1e-12);
}

TEST_CASE("the projection Jacobian matches finite differences", "[camera]") {
  const Camera c = testCamera();
  const Vec3 x(0.2, 1.4, -0.3);
  const Mat23 j = c.pixelJacobian(x);
  const double h = 1e-6;
  for (int k = 0; k < 3; ++k) {
    const Vec3 dx = h * Vec3::Unit(k);
    const Vec3 numeric = (c.project(x + dx) - c.project(x - dx)) / (2 * h);
    CHECK(j(0, k) == Approx(numeric.x()).margin(1e-4));
    CHECK(j(1, k) == Approx(numeric.y()).margin(1e-4));
  }
  CHECK(c.screenJacobian(x).isApprox(j / c.height));
}

TEST_CASE("frustum planes give signed distances, negative inside", "[camera]") {
  const Camera c = testCamera();
  const Vec3 target(0.0, 1.0, 0.0);
  CHECK(c.inFrustum(target));
  CHECK(c.frustumDistance(target) < 0);
  CHECK_FALSE(c.inFrustum(c.eye - c.forward));                   // behind the camera
  CHECK_FALSE(c.inFrustum(c.eye + 25.0 * c.forward));            // beyond far (20 m)
  CHECK(c.frustumDistance(c.eye + 25.0 * c.forward) == Approx(5.0));
  CHECK(c.frustumDistance(c.eye + 0.05 * c.forward) == Approx(0.05));  // in front of near (0.1 m)
  CHECK_FALSE(c.inFrustum(target + 10.0 * c.right));             // far off to the right
  CHECK_FALSE(c.inFrustum(target - 10.0 * c.up));                // far below
  // A point exactly on the top edge of the image is on the top plane.
  const auto planes = c.frustumPlanes();
  const double d = 3.0, halfHeight = d * std::tan(25.0 * M_PI / 180.0);
  const Vec3 onTop = c.eye + d * c.forward + halfHeight * c.up;
  CHECK(planes[kTopPlane].signedDistance(onTop) == Approx(0.0).margin(1e-12));
  CHECK(c.project(onTop).y() == Approx(0.0).margin(1e-9));
  for (const Plane& p : planes) CHECK(p.normal.norm() == Approx(1.0));
}

TEST_CASE("front-facing means the normal points towards the eye", "[camera]") {
  const Camera c = makeCamera({0, 0, 5}, {0, 0, 0}, {0, 1, 0}, 40, 0.1, 100, 100, 100);
  CHECK(c.isFrontFacing(Vec3::Zero(), Vec3::UnitZ()));
  CHECK_FALSE(c.isFrontFacing(Vec3::Zero(), -Vec3::UnitZ()));
  // Counter-clockwise seen from +z is front-facing from an eye on +z.
  CHECK(c.isFrontFacing(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)));
  CHECK_FALSE(c.isFrontFacing(Vec3(0, 0, 0), Vec3(0, 1, 0), Vec3(1, 0, 0)));
}
