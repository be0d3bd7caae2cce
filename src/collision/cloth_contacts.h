#pragma once
// Contacts between layers of cloth inside the implicit step: each cloth's nodes predicted to end the step within the
// contact thickness of another cloth's face, or of a layer of their own cloth folded onto itself, get one-sided
// springs (dynamics/obstacle_contact.h), the face taken as a surface moving with its own unconstrained motion x + h v.
//
// Why: layers of cloth were kept apart by the contact pass alone (collision/response.h, step 3), which pushes the
// nodes of close pairs apart after the solve, each node by itself. The solve never knew that the layer under it would
// stop it, so every step the layers sank into each other by what a step of gravity and of their own motion carries,
// and the pushes took it out again node by node. A push of one node moves it against the nodes around it: three
// cloths dropped on a ball sheared their faces by 0.1-0.3 of their rest size in a step, the push guard
// (dynamics/push_guard.h) took back most of it but not all, and a later remesh split made the rest long edges,
// 1.7-2.1x in most frames (docs/benchmarks.md, "Layers of cloth kept apart in the solve"). A spring in the solve
// stops the node and, through the cloth's own stiffness, the cloth around it, as the obstacle contacts do.
//
// Each of the two cloths is solved by itself, so each side takes a share of the predicted depth (`depthShare`, half
// by default): the two layers' nodes each stop half-way, and the pair ends the step apart.
//
// A cloth folded onto itself (a skirt's hem turned up, a sheet piling on the floor) has layers too. With `ownLayers`
// a node's own cloth counts where it is a layer and not a neighbour: a face of its cloth that does not hold the node
// and lies, in material space, at least thickness / kFoldChord (pi / 2 thicknesses) from it (or across a seam, where
// material space says nothing), which is where the contact pass keeps the pair the whole thickness apart
// (collision/material_distance.h). Nearer faces are the cloth's own neighbourhood, whose spacing its elasticity
// decides; the contact pass alone handles them. And only a face the node lies over or under (its nearest point inside
// the face, or on its boundary with the node within about 37 degrees of the normal): beside a face the side the node
// started on says little in a crease. Both sides of a fold are in the same solve and each side's nodes get their own
// springs, so the same half share applies.
//
// The contacts are marked ObstacleContact::withCloth: the step's check for contacts the solve missed still looks for
// an obstacle at their nodes.
#include <vector>

#include "collision/wide_bvh.h"
#include "dynamics/obstacle_contact.h"
#include "mesh/mesh.h"

namespace adacloth {

struct ClothContactSettings {
  double thickness = 0.005;  // m: the contact distance (the shot's collision thickness)
  double depthShare = 0.5;   // share of the predicted depth a node's spring asks for (1)
  double friction = 0.2;     // Coulomb coefficient of the springs (the shot's cloth-cloth friction)
};

// Every cloth's faces at the end of a step of length h (s) as the cloths would move unconstrained (x + h v), in one
// tree. Built once per step, before any cloth is solved, so that every cloth sees the others as they were.
class ClothEndSurfaces {
 public:
  // ownLayers: a cloth's nodes also meet the layers of their own cloth (above). The faces' tree is built anew.
  ClothEndSurfaces(const std::vector<const Mesh*>& cloths, double h, bool ownLayers = false);
  // The same with a tree the caller keeps from step to step (WideBvh::update: refit while it stays tight, built anew
  // when the face count changes or it has grown loose). A frame's steps share one mesh, and building the tree every
  // step was a third of this class's cost on skirt_walk (4 % of its frame). The contacts do not depend on the tree.
  ClothEndSurfaces(const std::vector<const Mesh*>& cloths, double h, bool ownLayers, WideBvh& keptTree);
  ClothEndSurfaces(const ClothEndSurfaces&) = delete;
  ClothEndSurfaces& operator=(const ClothEndSurfaces&) = delete;

  // The contacts of cloth `cloth`'s free nodes (mass > 0) with the faces of the other cloths (and, with ownLayers,
  // with the layers of its own): a node whose end position lies within the thickness of such a face, on the side of
  // the face it was on at the start of the step, gets a contact along the face's normal (turned to that side), of
  // depth depthShare (thickness - distance), with the face point's velocity as the surface's (for friction). A node
  // predicted more than the thickness through the face is left to the contact pass (it may have come from the other
  // side). One contact per node, with its nearest face (of two as near, the one of the lower cloth and face number,
  // so that the list does not depend on the tree); in node order, the same list at any thread count.
  std::vector<ObstacleContact> contactsOf(int cloth, const ClothContactSettings& settings) const;

 private:
  struct FaceRef {
    int cloth, face;
    Tri nodes;
  };
  // Whether face `face` of cloth `cloth`, not holding node `node` and within the thickness of it, is a layer for it,
  // not a neighbour (above).
  bool isLayerOf(int cloth, int node, int face, double thickness) const;

  std::vector<const Mesh*> cloths_;
  bool ownLayers_ = false;
  // Per cloth, per node, as they were when the tree was built (a cloth solved before another changes its own x and v):
  std::vector<std::vector<Vec3>> start_, velocity_, end_;  // x (m), v (m/s), x + h v (m)
  // With ownLayers, per cloth: each face's chart, and each node's chart and material position (m) (cloth_contacts.cpp).
  std::vector<std::vector<int>> faceChart_, nodeChart_;
  std::vector<std::vector<Vec2>> nodeMaterial_;
  std::vector<FaceRef> faces_;  // in cloth order, each cloth's faces in order
  WideBvh ownTree_;               // the tree when the caller keeps none
  const WideBvh* tree_ = nullptr;  // ownTree_ or the caller's
  bool searched_ = false;          // the tree holds this step's faces (there is something to touch)
};

}  // namespace adacloth
