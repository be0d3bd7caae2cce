#pragma once
// A closed triangle surface (an obstacle mesh: positions and faces only) and the checks that make it usable as one:
// every edge used once in each direction (closed, consistently oriented 2-manifold), Euler characteristic, volume.
#include <string>
#include <vector>

#include "mesh/types.h"

namespace adacloth::assets {

struct Surface {
  std::vector<Vec3> x;       // m
  std::vector<Tri> faces;    // counter-clockwise seen from outside
};

// One line per problem: an edge not used exactly once in each direction, a vertex in no face, a non-finite
// coordinate, a zero-area face, a vertex whose faces form more than one fan (a pinched vertex). Empty when the
// surface is a closed, consistently oriented manifold.
std::vector<std::string> closedManifoldProblems(const Surface& s);

int eulerCharacteristic(const Surface& s);  // V - E + F; 2 for a closed surface of genus 0
int connectedComponents(const Surface& s);
double signedVolume(const Surface& s);      // m^3, positive when the faces point outwards
double minFaceArea(const Surface& s);       // m^2

}  // namespace adacloth::assets
