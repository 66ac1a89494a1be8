// fcsim — quarter of the lower half of a sphere of radius R = 0.05 m centred at (0, 0, R), for
// the Hertz contact test: x >= 0, y >= 0, 0 <= z <= R. The sphere touches the plane z = 0 at the
// origin. By the symmetry of a sphere pressed between two plates, the equator plane z = R
// stays plane (it is given a uniform displacement), and x = 0, y = 0 are symmetry planes.
//
// Physical groups: surfaces "equator" (z = R), "xsym" (x = 0), "ysym" (y = 0), "sphere" (the
// curved surface); volume "ball".
// Element size: lc_contact near the contact point (within 2 Hertz radii a = 3.2e-3 m),
// growing to lc_far; fcsim multiplies both by 2^-refine.
SetFactory("OpenCASCADE");
R = 0.05;
lc_contact = 1.0e-3;
lc_far = 0.01;
Sphere(1) = {0, 0, R, R};
Box(2) = {0, 0, 0, R, R, R};
BooleanIntersection{ Volume{1}; Delete; }{ Volume{2}; Delete; }

eps = 1e-6;
equator() = Surface In BoundingBox{-eps, -eps, R - eps, R + eps, R + eps, R + eps};
xsym() = Surface In BoundingBox{-eps, -eps, -eps, eps, R + eps, R + eps};
ysym() = Surface In BoundingBox{-eps, -eps, -eps, R + eps, eps, R + eps};
all() = Surface{:};
sphere() = all();
sphere() -= equator();
sphere() -= xsym();
sphere() -= ysym();
Physical Surface("equator", 1) = equator();
Physical Surface("xsym", 2) = xsym();
Physical Surface("ysym", 3) = ysym();
Physical Surface("sphere", 4) = sphere();
Physical Volume("ball", 5) = Volume{:};

// refinement towards the contact point (the origin)
Point(100) = {0, 0, 0};
Field[1] = Distance;
Field[1].PointsList = {100};
Field[2] = Threshold;
Field[2].InField = 1;
Field[2].SizeMin = lc_contact;
Field[2].SizeMax = lc_far;
Field[2].DistMin = 0.0065;
Field[2].DistMax = 0.03;
Background Field = 2;
Mesh.MeshSizeExtendFromBoundary = 0;
Mesh.MeshSizeFromPoints = 0;
Mesh.MeshSizeFromCurvature = 0;
