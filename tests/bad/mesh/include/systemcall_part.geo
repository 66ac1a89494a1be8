// Included by ../include_systemcall.geo (not a MANIFEST entry itself).

SystemCall 'true';
