#pragma once
// External forces on the nodes (N): gravity and wind. Spring and bending forces are part of the implicit step.
#include <vector>

#include "dynamics/params.h"
#include "mesh/mesh.h"

namespace adacloth {

// m_i * gravity (gravity in m/s^2).
void addGravity(const Mesh& mesh, const Vec3& gravity, std::vector<Vec3>& force);

// Aerodynamic force of each face from the air's velocity relative to the face (mean of its nodes' velocities):
// drag 0.5 rho C_d A |v_n| v_n along the normal, lift 0.5 rho C_l A |v|^2 cos(a) sin(a) across the flow. A third
// goes to each corner node. World areas and normals come from the current positions.
void addWind(const Mesh& mesh, const WindParams& wind, std::vector<Vec3>& force);

}  // namespace adacloth
