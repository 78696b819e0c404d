"""A Struct+Zlib device client written from the paper's description (Kumar et al. 2026, Section 3), not
the paper's own code: each simulated device POSTs its pre-encoded readings (struct.pack, then
zlib.compress(…, 9)) as application/octet-stream to /container-data; only HTTP 200 counts as
delivered."""

import paper_device

ContainerDevice = paper_device.device_user(paper_device.struct_zlib)
