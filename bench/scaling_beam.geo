// fcsim — strong-scaling beam (bench/strong_scaling.py): meshes/beam.geo with lc = 0.04, so that
// refine 2, order 2 gives 216,843 DoFs (issue 29: at least 200k). Original header:
// fcsim — cantilever beam, box [0,1] x [0,0.1] x [0,0.1] (metres).
//
// Physical groups:
//   surfaces  "fixed" (tag 1, x = 0), "tip" (tag 2, x = 1),
//             "top" (tag 3, z = 0.1), "bottom" (tag 4, z = 0);
//   volume    "beam" (tag 5).
// Element size: characteristic length lc = 0.05 at refine 0 (20 elements along the length,
// 2 across). fcsim sets Mesh.MeshSizeFactor = 2^-refine when it meshes this file, so every
// refine level halves the size (x8 elements). `gmsh -3 beam.geo` gives the refine-0 mesh.
// The Physical Volume matters: a .msh saved from this file keeps only the elements of
// physical groups, and without it there would be no tetrahedra in the file.

lc = 0.04;
L = 1;
H = 0.1;

Point(1) = {0, 0, 0, lc};
Point(2) = {L, 0, 0, lc};
Point(3) = {L, H, 0, lc};
Point(4) = {0, H, 0, lc};
Line(1) = {1, 2}; // y = 0
Line(2) = {2, 3}; // x = L
Line(3) = {3, 4}; // y = H
Line(4) = {4, 1}; // x = 0
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1}; // z = 0

// Extruding the bottom face gives: ext[0] the top face (z = H), ext[1] the volume, and
// ext[2..5] the side faces swept by lines 1..4.
ext[] = Extrude {0, 0, H} { Surface{1}; };

Physical Surface("fixed", 1) = {ext[5]};
Physical Surface("tip", 2) = {ext[3]};
Physical Surface("top", 3) = {ext[0]};
Physical Surface("bottom", 4) = {1};
Physical Volume("beam", 5) = {ext[1]};
