// fcsim — the silicone block of cases/haptic_probe.json: 50 x 50 x 20 mm (metres), top face at
// z = 0, centred on the z axis: [-0.025, 0.025] x [-0.025, 0.025] x [-0.02, 0].
//
// Physical groups:
//   surfaces  "base" (tag 1, z = -0.02, clamped), "top" (tag 2, z = 0, the contact surface),
//             "sides" (tag 3);
//   volume    "block" (tag 4).
// Element size: lc = 6.25 mm at refine 0 (8 elements along x and y, 3 or 4 through the thickness);
// fcsim sets Mesh.MeshSizeFactor = 2^-refine, so every refine level halves the size.
// `gmsh -3 probe_block.geo` gives the refine-0 mesh.

lc = 0.00625;

Point(1) = {-0.025, -0.025, -0.02, lc};
Point(2) = { 0.025, -0.025, -0.02, lc};
Point(3) = { 0.025,  0.025, -0.02, lc};
Point(4) = {-0.025,  0.025, -0.02, lc};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1}; // z = -0.02

// ext[0] the top face (z = 0), ext[1] the volume, ext[2..5] the sides swept by lines 1..4.
ext[] = Extrude {0, 0, 0.02} { Surface{1}; };

Physical Surface("base", 1) = {1};
Physical Surface("top", 2) = {ext[0]};
Physical Surface("sides", 3) = {ext[2], ext[3], ext[4], ext[5]};
Physical Volume("block", 4) = {ext[1]};
