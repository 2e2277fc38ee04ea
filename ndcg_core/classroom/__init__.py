"""The live classroom: rooms a teacher opens and students join from their phones, four activities, and the
class's answers added up. ``rules``, ``kinds`` (one module per kind of activity) and ``results`` hold the rules and
the numbers (from ndcg_core); ``store`` keeps everything in SQLite or PostgreSQL through SQLAlchemy. No Streamlit
here."""
