"""A Protobuf device client written from the paper's description (Kumar et al. 2026, Section 3), not
the paper's own code: each simulated device POSTs its pre-encoded readings (the protoc-generated
class of container.proto) as application/octet-stream to /container-data; only HTTP 200 counts as
delivered."""

import paper_device

ContainerDevice = paper_device.device_user(paper_device.protobuf)
