#pragma once
// Wavefront OBJ in and out. Convention (docs/design.md §1): `v` lines are node positions (m), `vt` lines are material
// coordinates (m), each face corner is `v/vt`. Several vt per v make a seam. Polygons are fan-triangulated.
// A mesh without vt gets material coordinates from its positions projected on their best plane, which is only
// valid for a single flat panel.
#include <filesystem>
#include <string>

#include "mesh/mesh.h"

namespace adacloth {

// Reads and checks a cloth mesh. Every problem is an InputError "<path>:<line>: <what>" (or "<path>: <what>" when
// there is no single line to blame): unreadable file, syntax, NaN/Inf coordinates, indices out of range, degenerate
// or flipped faces, an edge shared by more than two faces, inconsistent orientation.
Mesh readObj(const std::filesystem::path& path);
// The same from text; `name` is used in messages in place of a path.
Mesh parseObj(const std::string& text, const std::string& name);

// OBJ text of a mesh: v per node, vt per vert, f v/vt. Numbers are written in their shortest exact form, so a
// write/read round trip reproduces coordinates bit for bit.
std::string formatObj(const Mesh& mesh);
// formatObj written atomically (temporary name, then rename).
void writeObj(const Mesh& mesh, const std::filesystem::path& path);

}  // namespace adacloth
