import platform
from importlib.metadata import version

for name in ["numpy", "matplotlib", "torch", "gymnasium"]:
    print(f"{name:<11}{version(name)}")

print(f"{'python':<11}{platform.python_version()}")
