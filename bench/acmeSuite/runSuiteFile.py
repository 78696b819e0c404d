"""Runs one file of ACME's own test suite (ankraft/ACME-oneM2M-CSE, tests/) against a CSE on this
machine, without editing the checkout: the suite's config.py is read, its CSE port, notification
port and host are set to ours, and it is installed as the module `config` before runTests.py runs.

usage: python runSuiteFile.py <acme checkout>/tests <test file, e.g. testAE> <CSE port> <notification port>
The CSE must answer at http://127.0.0.1:<port>/cse-in with CSE-ID /id-in and admin CAdmin (the
suite's defaults). runTests.py's own output goes to stdout.
"""
import os
import re
import runpy
import sys
import types

tests, test_file, cse_port, notification_port = sys.argv[1:5]
os.chdir(tests)
sys.path.insert(0, tests)
with open("config.py", encoding="utf-8") as f:
    source = f.read()
for name, value in (
    ("TARGETHOST", "'127.0.0.1'"),
    ("CSEPORT", str(int(cse_port))),
    ("NOTIFICATIONPORT", str(int(notification_port))),
):
    source, found = re.subn(rf"^{name}\s*=.*$", f"{name} = {value}", source, count=1, flags=re.M)
    if found != 1:
        sys.exit(f"config.py of the suite has no assignment of {name}: this runner does not know this version")
config = types.ModuleType("config")
config.__file__ = os.path.join(tests, "config.py")
exec(compile(source, config.__file__, "exec"), config.__dict__)
sys.modules["config"] = config
# -nout: no upper tester interface (only ACME has it); -lns: notifications to 127.0.0.1
sys.argv = ["runTests.py", "-nout", "--no-failfast", "-lns", test_file]
runpy.run_path("runTests.py", run_name="__main__")
