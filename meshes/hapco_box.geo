// fcsim — an axis-aligned box [x0, x0+lx] x [y0, y0+ly] x [z0, z0+lz] (metres), for the HapCo
// benchmarks (talbi2008 §3.3.3, Fig. 5). Included by hapco_red.geo and hapco_green_*.geo,
// which set x0, y0, z0, lx, ly, lz and the element size lc before the Include.
//
// Physical groups:
//   surfaces  "xmin" (1), "xmax" (2), "ymin" (3), "ymax" (4), "zmin" (5), "zmax" (6);
//   volume    "box" (7).
// fcsim sets Mesh.MeshSizeFactor = 2^-refine, so every refine level halves lc.
// Alone (gmsh -3 hapco_box.geo, or fcsim's check that every mesh in meshes/ loads) it makes the
// red block: DefineConstant sets a value only where the including file did not.

DefineConstant[ x0 = 0, y0 = 0, z0 = 0, lx = 0.10, ly = 0.02, lz = 0.02, lc = 0.005 ];

Point(1) = {x0, y0, z0, lc};
Point(2) = {x0 + lx, y0, z0, lc};
Point(3) = {x0 + lx, y0 + ly, z0, lc};
Point(4) = {x0, y0 + ly, z0, lc};
Line(1) = {1, 2}; // y = y0
Line(2) = {2, 3}; // x = x0 + lx
Line(3) = {3, 4}; // y = y0 + ly
Line(4) = {4, 1}; // x = x0
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1}; // z = z0

// ext[0] the top face, ext[1] the volume, ext[2..5] the faces swept by lines 1..4
ext[] = Extrude {0, 0, lz} { Surface{1}; };

Physical Surface("xmin", 1) = {ext[5]};
Physical Surface("xmax", 2) = {ext[3]};
Physical Surface("ymin", 3) = {ext[2]};
Physical Surface("ymax", 4) = {ext[4]};
Physical Surface("zmin", 5) = {1};
Physical Surface("zmax", 6) = {ext[0]};
Physical Volume("box", 7) = {ext[1]};
