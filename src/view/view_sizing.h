#pragma once
// View-dependent sizing of one cloth (docs/design.md §4), the steps that slot into the sizing pipeline of
// src/sizing/sizing_field.h:
//   rawFaceSizing -> applyViewToFaceSizing (F^2 scaling, screen-space clamp) -> clampFaceSizing (hard limits)
//   -> silhouetteVertexSizing (instead of vertexSizing) -> remesh.
#include <vector>

#include "mesh/mesh.h"
#include "view/params.h"
#include "view/view_factor_field.h"

namespace adacloth {

// Per-frame view statistics of a cloth (stats.jsonl).
struct ViewStats {
  int visibleFaces = 0;          // faces in the current camera's view (faceInView)
  double meanViewFactor = 0.0;   // mean of F3' over the faces (each face counts once, whatever its size)
};

// Faces with a node held by a handle bound to an obstacle (`held`: one flag per node; the app passes the nodes of
// `bind_to` handles) keep their view-independent sizing (ViewParams::keepHeld): their camera becomes -1, which
// applyViewToFaceSizing leaves unscaled and unclamped. Their factor stays, so that silhouetteVertexSizing does not
// take the band's tensors for a silhouette's and refine the cloth beside a band out of view finer than the
// view-independent run would.
// Why it exists: while bound bands followed the body's skin, the free cloth beside a skirt's band seen by a film
// camera spent 10x as many frames past 1.3x its rest length as without the view. Bands now keep their shape
// (HandleSpec::bindRigidity), which closed that gap; this stays an option (docs/view-dependent.md).
void keepHeldFacesViewIndependent(const Mesh& mesh, const std::vector<char>& held, ViewFactorField& field);

// Scales each face tensor by F^2 (F = field.factor), then applies the screen-space clamp with the camera of the
// window that gave the face its factor (so a face refined ahead of a jump cut is clamped for the camera that will
// see it), for faces wholly beyond that camera's near plane; faces without a camera (-1) are left as they are.
// `minPixels` at the camera's image height. Ahead of a jump cut (`spec.cutRamp`), a face the next shot shows larger
// is also clamped for it, ramped over the window (.cpp).
void applyViewToFaceSizing(const Mesh& mesh, std::vector<Mat2>& faceSizing, const ViewFactorField& field,
                           const ViewWindow& window, const ViewParams& spec);

// Per-vert tensors: the material-area-weighted average of the vert's faces (as vertexSizing), except where the view
// factor jumps across the vert (max - min of F over its faces > threshold, the discrete |dF/du| x edge length of
// docs/design.md §4.6): there the tensor max of its faces, which keeps the finer side's resolution along silhouettes
// and the frustum border.
std::vector<Mat2> silhouetteVertexSizing(const Mesh& mesh, const std::vector<Mat2>& faceSizing,
                                         const std::vector<double>& factor, double threshold);

// Statistics of the mesh as it is now against the current camera of the window.
ViewStats measureView(const Mesh& mesh, const ViewWindow& window, const ViewParams& spec);

}  // namespace adacloth
