"""The paper's struct+zlib device client: each simulated device POSTs its pre-encoded readings as
application/octet-stream to /container-data; only HTTP 200 counts as delivered."""

import paper_device

ContainerDevice = paper_device.device_user(paper_device.struct_zlib)
