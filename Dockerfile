# The production image: the same commands as the README's "Production without Docker".
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY pyproject.toml README.md ./
COPY config ./config
COPY games ./games
COPY accounts ./accounts
COPY telemetry ./telemetry
RUN pip install --no-cache-dir .
COPY . .
# collectstatic needs settings but no database or secret of the real deployment.
RUN DEBUG=0 SECRET_KEY=build-only-not-used-at-runtime-0123456789abcdef \
    python manage.py collectstatic --noinput --verbosity 0
RUN useradd --create-home cards && chown -R cards /app
USER cards
EXPOSE 8000
CMD ["python", "manage.py", "serve", "--host", "0.0.0.0", "--port", "8000"]
