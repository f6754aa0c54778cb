"""Frozen slotted dataclasses built without their ``__init__``'s cost, for values made at every step.

A frozen dataclass's generated ``__init__`` stores each field through ``object.__setattr__`` (it
has to get round the class's own ``__setattr__``, which refuses), several times slower than a plain
store into a slot: a view (21 fields, built at every decision) spent a third of its time there.
:func:`maker` gives a positional constructor that stores the fields into a twin class with the same
slots and no such guard, then makes the object an instance of the frozen class by assigning its
``__class__`` (Python allows that between classes of the same layout). What comes out is an
ordinary instance of the frozen class — equal, hashable, immutable, printable and picklable like
one its ``__init__`` built — given every field in order (no defaults are filled in).

    >>> from engine.meld import Meld, MeldKind
    >>> make_meld = maker(Meld)
    >>> make_meld(MeldKind.PON, (4, 4, 4), 4, 2) == Meld(MeldKind.PON, (4, 4, 4), 4, 2)
    True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def maker(cls: type[T]) -> Callable[..., T]:
    """``make(*fields)``, every field of the frozen slotted dataclass ``cls`` in field order."""
    names = tuple(f.name for f in dataclasses.fields(cls))  # type: ignore[arg-type]
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or getattr(cls, "__slots__", None) != names:
        raise TypeError(f"{cls.__name__} is not a frozen dataclass with slots of its own fields")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}.__post_init__ would not run")
    body = "".join(f"\n    self.{n} = {n}" for n in names)
    namespace: dict[str, Any] = {"frozen_class": cls}
    # the twin's plain stores, then the object becomes a ``cls``
    exec(f"def __init__(self, {', '.join(names)}):{body}\n    self.__class__ = frozen_class", namespace)
    twin = type(f"_{cls.__name__}Fields", (), {"__slots__": names, "__init__": namespace["__init__"]})
    twin.__doc__ = f"Makes a {cls.__name__} from its fields in order ({', '.join(names)})."
    return twin
