"""Running the app as several processes behind nginx on one machine: ``python -m deploy up --replicas N --port P``."""
