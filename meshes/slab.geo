// fcsim — a thin rigid slab [-1, 2] x [-1, 2] x [-0.2, 0] (metres) whose top face z = 0 serves as
// a flat floor (rigid body with "shape": {"type": "mesh", "file": "slab.geo", "group": "top"}).
// Under the unit cube [0,1]^3 of cube.geo it extends 1 m beyond every side, so every node of the
// cube's bottom face projects inside the top face; it also holds the Hertz quarter sphere
// (hertz_quarter.geo, x, y in [0, 0.05]) and its analytic twin is the plane z = 0, or the box
// centre (0.5, 0.5, -0.1), half extents (1.5, 1.5, 0.1).
//
// Physical groups: surfaces "top" (tag 1, z = 0), "bottom" (tag 2, z = -0.2), "sides" (tag 3);
// volume "slab" (tag 4).
// Element size lc = 1 (a few dozen triangles on the top face): the top is flat, so the mesh size
// does not change its geometry. fcsim multiplies lc by 2^-refine when it meshes this file.

lc = 1.0;

Point(1) = {-1, -1, -0.2, lc};
Point(2) = { 2, -1, -0.2, lc};
Point(3) = { 2,  2, -0.2, lc};
Point(4) = {-1,  2, -0.2, lc};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1}; // z = -0.2

// ext[0] the top face (z = 0), ext[1] the volume, ext[2..5] the sides swept by lines 1..4.
ext[] = Extrude {0, 0, 0.2} { Surface{1}; };

Physical Surface("top", 1) = {ext[0]};
Physical Surface("bottom", 2) = {1};
Physical Surface("sides", 3) = {ext[2], ext[3], ext[4], ext[5]};
Physical Volume("slab", 4) = {ext[1]};
