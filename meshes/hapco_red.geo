// fcsim — HapCo benchmarks (talbi2008 §3.3.3): the red (clamped) block, L x W x H = 10 x 2 x 2 cm,
// on [0, 0.1] x [0, 0.02] x [0, 0.02] m. Groups: see hapco_box.geo.
x0 = 0; y0 = 0; z0 = 0;
lx = 0.10; ly = 0.02; lz = 0.02;
lc = 0.005;
Include "hapco_box.geo";
