#pragma once
// The simulated world built from a shot: cloth meshes in their initial state, ready for the frame loop.
#include <string>
#include <vector>

#include "config/shot.h"
#include "mesh/mesh.h"

namespace adacloth {

struct Cloth {
  ClothSpec spec;
  Mesh mesh;
};

struct Scene {
  std::vector<Cloth> cloths;
  double time = 0.0;  // s
};

// Loads or generates a cloth's mesh and places it with its transform; masses from the material's area density.
// Missing or broken files are InputErrors naming the shot, the JSON path and the mesh file.
Mesh buildClothMesh(const ClothSpec& cloth, const Shot& shot);

// Every cloth of the shot, in order. Throws InputError.
Scene buildScene(const Shot& shot);

}  // namespace adacloth
