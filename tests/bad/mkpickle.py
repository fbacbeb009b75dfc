# mkpickle.py OUT PROTOCOL [CASE]: a small tinygrad-like profile pickle for the tests of
# hostile captures (t07x0).  The classes only need the names tinygrad gives them.
import pickle, sys

class ProfileDeviceEvent:
    pass
class ProfileProgramEvent:
    pass
class ProfileSQTTEvent:
    pass

def obj(cls, **kw):
    o = cls()
    o.__dict__.update(kw)
    return o

out, proto = sys.argv[1], int(sys.argv[2])
case = sys.argv[3] if len(sys.argv) > 3 else "plain"
stream = open(sys.argv[4], "rb").read() if len(sys.argv) > 4 else b"\x91\x01\x90\x68\x00\x00\x00\x00"
code = b"\x7fELF" + bytes(60)
# "esc": ESC, DEL and a lone surrogate, which pickle writes as bytes that are not UTF-8
name = {"plain": "E_1", "dotdot": "../../x", "tab": "k\tx\ny\\z",
        "esc": "k\x1b[2J\x7f\udcff", "dash": "-"}.get(case, "E_1")
se = {"nose": None, "bigse": 2**40}.get(case, 0)
ev = dict(blob=stream, kern=7, itrace=True)
if se is not None:
    ev["se"] = se
events = [
    obj(ProfileDeviceEvent, props={"gfx_target_version": 110000}),
    obj(ProfileProgramEvent, name=name, lib=code, tag=7, base=0x1000),
    obj(ProfileSQTTEvent, **ev),
]
if case == "twin":  # a second program of the same name
    events.insert(2, obj(ProfileProgramEvent, name=name, lib=b"\x7fELF" + bytes([1]) * 60,
                         tag=8, base=0x2000))
open(out, "wb").write(pickle.dumps(events, protocol=proto))
