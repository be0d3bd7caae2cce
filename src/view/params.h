#pragma once
// View-dependent refinement of one cloth (the cloth's `view` key; docs/design.md §4, docs/view-dependent.md): how its
// sizing field is scaled by the view factor F of the shot's camera. The member initializers are the single source of
// the defaults: the shot schema reads them.

namespace adacloth {

struct ViewParams {
  double fOut = 0.1;               // view factor of faces out of view, in (0, 1]: sizing scaled by fOut^2
  double margin = 0.2;             // m: width of the buffer outside the frustum over which F falls from 1 to fOut
  int anticipationFrames = 12;     // frames looked ahead and behind (m_t)
  int fullFrames = 4;              // frames within which the camera counts at full weight (n <= m_t)
  bool cutRamp = true;             // cloth the next shot shows larger is refined gradually over the window before a cut
  double minPixels = 2.0;          // pixels: shortest edge a visible face is refined to on screen
  bool backface = false;           // back-facing faces count as out of view (garments); off for flags, curtains
  double fBack = 0.3;              // view factor of back faces in the frustum that `backface` hides, in (0, 1]
  double backRamp = 0.0;           // cosine past the silhouette over which a back face's factor falls from 1 to fBack
  bool occlusion = false;          // faces hidden behind obstacles or cloth count as out of view (depth pre-pass)
  double silhouetteThreshold = 0.2;  // view factor jump across a vert above which it takes the tensor max
  double memorySeconds = 0.15;     // s: fade time of the memory of the resolution seen (view_memory.h); 0: off
  bool keepHeld = false;           // faces with a node bound to an obstacle keep their view-independent sizing
};

}  // namespace adacloth
