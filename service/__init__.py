"""What users touch: the ``triominoes`` command line (``cli``), the web service and its page
(``app``), and live games kept from a camera (``live``, ``games``)."""
