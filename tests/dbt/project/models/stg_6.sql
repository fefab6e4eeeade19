select region_id, name, 6 as batch from {{ ref('regions') }}
